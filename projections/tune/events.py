"""The tuning's event types (placeholder until the tuning issue lands)."""

from engine import Registry

REGISTRY = Registry([])
