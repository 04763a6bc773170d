"""Settings from a zen-finetune config.json, resolved as batch.mjs's cfg() does (pure)."""

from __future__ import annotations

import math

from batchlog.projections.tune.batch_mjs.rules import Settings


def settings_from_config(config: object) -> Settings:
    """Settings as batch.mjs resolves config.json: a key counts when it is a positive number (recheck: any
    finite number, 0 included), else its default. A fraction is truncated (at least 1 for the sizes):
    batch.mjs would carry it on, but no tuning writes one."""
    config = config if isinstance(config, dict) else {}

    def positive(key: str, fallback: int) -> int:
        number = _js_number_of(config[key]) if key in config else None
        return max(1, int(number)) if number is not None and number > 0 else fallback

    minimum = positive("minBatch", 3)
    recheck = _js_number_of(config["recheck"]) if "recheck" in config else None
    return Settings(
        min_batch=minimum,
        max_batch=max(minimum, positive("maxBatch", 10)),
        recheck=int(recheck) if recheck is not None else 3,
        seed=positive("seed", 1),
        max_retries=positive("maxRetries", 3),
    )


def _js_number_of(value: object) -> float | None:
    """JavaScript's Number(value) when it is finite, else None (enough of Number() for config values)."""
    if value is None:
        return 0.0  # Number(null) === 0
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        try:
            number = float(value)
        except OverflowError:
            return None
        return number if math.isfinite(number) else None
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return 0.0
        if "_" in text or text.lower().lstrip("+-") in ("inf", "infinity", "nan"):
            return None  # Python's float() reads these, JavaScript's Number() does not (finitely)
        try:
            number = float(int(text, 0)) if text.lower().startswith(("0x", "0o", "0b")) else float(text)
        except (ValueError, OverflowError):
            return None
        return number if math.isfinite(number) else None
    return None
