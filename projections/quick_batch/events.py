"""The quick batch's event types (placeholder until the quick-batch issue lands)."""

from engine import Registry

REGISTRY = Registry([])
