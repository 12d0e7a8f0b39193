"""Tests of the pure domain logic."""
