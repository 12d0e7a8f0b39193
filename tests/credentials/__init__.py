"""Tests of credential storage, detection and the login commands."""
