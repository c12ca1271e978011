"""Live ipywidgets forms that let a person answer input requests while the cell awaits."""
