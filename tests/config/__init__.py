"""Tests of the config file, paths and profile precedence."""
