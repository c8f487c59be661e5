"""nlu package."""
