"""Brass: Birmingham online: rules engine (`brass.engine`), game server (`brass.server`)."""
