"""logs package."""
