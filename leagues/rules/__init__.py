"""The pure rules of a league: scoring, placements, tie-breaks and the rating."""
