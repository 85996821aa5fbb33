"""Writes src/logic/fixtures/positions.json: real legal actions, quotes and views from the
engine, for the client's unit tests. Run: ../.venv/bin/python scripts/make-fixtures.py"""

import json
from pathlib import Path

from brass.engine import apply_action, legal_actions, new_game, parse_action, quote, view

g = new_game(2, 1)
start = [{"action": a.to_json(), "quote": quote(g, a).to_json()} for a in legal_actions(g)]
steps = [
    {"kind": "build", "card": "location:birmingham", "industry": "cotton",
     "location": "birmingham", "slot": 0},
    {"kind": "loan", "card": "industry:brewery"},
    {"kind": "build", "card": "industry:coal", "industry": "coal", "location": "belper", "slot": 1},
    {"kind": "network", "card": "industry:brewery", "links": ["belper--derby"]},
    {"kind": "network", "card": "location:burton_on_trent", "links": ["birmingham--oxford"]},
]
views = [view(g, None)]
for s in steps:
    g = apply_action(g, parse_action(s))
    views.append(view(g, None))
later = [{"action": a.to_json(), "quote": quote(g, a).to_json()}
         for a in legal_actions(g) if a.kind in ("sell", "build")]
out = Path(__file__).resolve().parents[1] / "src" / "logic" / "fixtures" / "positions.json"
out.write_text(json.dumps({"start": start, "later": later, "views": views, "steps": steps}))
print(f"wrote {out}")
