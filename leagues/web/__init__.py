"""The public league pages: the shell at shareable paths, link previews, the widget."""
