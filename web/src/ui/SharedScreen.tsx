// A game several players play at one screen (its host allowed a shared screen, and each took a
// seat here): the page plays the seat to move, and before it shows another player's hand it
// asks for the screen to be passed to them, so nobody sees a hand that is not theirs.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { Host, SeatToken } from "../api/client";
import { t } from "../i18n";
import { GameScreen } from "./GameScreen";

export function SharedScreen({ id, held, host }: { id: string; held: SeatToken[]; host: Host | null }): JSX.Element {
  const [active, setActive] = useState(held[0].seat);
  const [passTo, setPassTo] = useState<SeatToken | null>(null);
  const seat = held.find((s) => s.seat === active) ?? held[0];
  const onMover = (mover: number | null) => {
    const next = held.find((s) => s.seat === mover);
    if (next && next.seat !== seat.seat) setPassTo(next);
  };
  if (passTo) {
    return (
      <div class="page pass-screen" data-testid="pass-screen" data-seat={passTo.seat}>
        <p>{t("shared.pass", { name: passTo.name })}</p>
        <button type="button" data-testid="take-screen" onClick={() => {
          setActive(passTo.seat);
          setPassTo(null);
        }}>{t("shared.take", { name: passTo.name })}</button>
      </div>
    );
  }
  // a new seat is a new page: its own socket, hand and choices
  return <GameScreen key={seat.token} id={id} mine={seat} host={host} onMover={onMover} />;
}
