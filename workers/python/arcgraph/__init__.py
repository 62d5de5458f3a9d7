"""arcgraph's Python host: runs one ARC-AGI-3 game (arcengine) for the Node side (see ../PROTOCOL.md)."""
