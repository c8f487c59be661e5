"""recommender package."""
