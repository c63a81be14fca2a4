"""Polar's Python SDK 1.0.2 as the oracle of webhook payloads per version: each delivered request
goes through `polar.v<version>.webhooks.validate_event`, which checks the signature and loads the
body into the version's models (a missing field, a wrong type or an unknown enum value is refused).

stdin: {"version": "2026-10", "secret": "...", "requests": [{"headers": {...}, "body": "..."}]}
stdout: one JSON line, {"validated": <count>, "refused": [{"type": ..., "error": ...}]}
"""

import importlib
import json
import sys

from polar.base import deserialize


def refusal_path(error: BaseException) -> list[str]:
    """The messages from the model down to the refused value, through nested errors and causes."""
    nested = list(getattr(error, "exceptions", None) or ([error.__cause__] if error.__cause__ else []))
    own = str(error).split(" (")[0]
    return [own] + (refusal_path(nested[0]) if nested else [])


def why_refused(module, event_type, request, error: Exception) -> str:
    """The refusal by the type's own payload model: the union's error lists all 42 attempts."""
    name = "Webhook" + "".join(part.capitalize() for part in event_type.replace(".", "_").split("_")) + "Payload"
    payload_model = getattr(module, name, None)
    if payload_model is not None:
        try:
            deserialize(json.loads(request["body"]), payload_model)
        except Exception as specific:  # the field the model refuses
            return " / ".join(refusal_path(specific))[-1500:]
    return f"{type(error).__name__}: {str(error.__cause__ or error)[-1500:]}"


def main() -> None:
    given = json.load(sys.stdin)
    module = importlib.import_module(f"polar.v{given['version'].replace('-', '_')}.webhooks")
    refused = []
    for request in given["requests"]:
        try:
            module.validate_event(request["body"], request["headers"], given["secret"])
        except Exception as error:  # every refusal is reported, whatever its kind
            event_type = json.loads(request["body"]).get("type")
            refused.append({"type": event_type, "error": why_refused(module, event_type, request, error)})
    print(json.dumps({"validated": len(given["requests"]), "refused": refused}))


if __name__ == "__main__":
    main()
