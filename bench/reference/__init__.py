"""Today's bots (brass/bots at dd020df, before the learned evaluation), kept unchanged as the
ladder's reference: `bench/bots.py` plays the new levels against `ref-medium` and `ref-hard`."""
