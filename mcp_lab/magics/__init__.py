"""The IPython magics: each parses its line and delegates to a feature; nothing else lives here."""
