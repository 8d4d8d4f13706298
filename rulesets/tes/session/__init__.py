"""Sessions and the campaign (rulebook pp.12-15, 48-51)."""
