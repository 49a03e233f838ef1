"""What the library writes to disk: atomic file writes."""
