"""The engine's two kinds of refusal: a move the rules forbid, and input that is not a move."""


class IllegalAction(Exception):
    """A well-formed action that the rules forbid; the message says why, in a player's words."""


class MalformedAction(ValueError):
    """Input that is not an action at all: wrong shape, unknown kind, card, location, link."""


class InvalidSetup(ValueError):
    """A `setup` object that does not add up (wrong deck for the player count, unknown card...)."""


class DataError(ValueError):
    """A broken data file; the message names the file and the entry."""
