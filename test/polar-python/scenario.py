"""Polar's Python SDK (polar-sdk 1.x) against a Tollgate, one API version at a time.

Usage: python scenario.py '<seed JSON>'   (api/v1/python-sdk.int.test.ts writes the seed)

The seed names the base URL, an organization access token, the version (2026-04, 2026-10 or
2027-01) and the ids of objects made beforehand. Every operation runs through the version's own
client (`from polar.v2026_10 import Polar`), which loads each answer strictly into its models: a
missing required field, a wrong type or an unknown enum value fails the operation. A failure is
recorded (its exception class and the deserialization error's first lines) and the scenario goes
on. It prints one JSON document: per operation `{"ok": true}` or `{"ok": false, "error", "detail"}`,
and whether every answer carried the request's Polar-Version back.

Later operations take their ids from earlier answers read raw, so an answer the SDK refuses to
load still hands its id on (the object was made; only its shape is wrong).
"""

from __future__ import annotations

import base64
import hashlib
import importlib
import json
import sys
import traceback
import typing

import httpx
from polar import PolarClientError, PolarDeserializationError

Json = typing.Any


class Scenario:
    def __init__(self, seed: dict[str, Json]) -> None:
        self.seed = seed
        self.version: str = seed["version"]
        module = importlib.import_module(f"polar.v{self.version.replace('-', '_')}")
        self.polar = module.Polar(seed["token"], base_url=seed["base_url"], timeout=30.0)
        # The SDK keeps its httpx client private; a response hook is the one way to read the raw
        # answers (ids of answers it refuses, the echoed Polar-Version) without a second client.
        self.polar._client._client.event_hooks["response"].append(self._on_response)
        self.results: dict[str, dict[str, Json]] = {}
        self.bodies: dict[str, Json] = {}
        self.last_body: Json = None
        self.versions_answered: dict[str, int] = {}
        self.suffix = self.version.replace("-", "")

    def _on_response(self, response: httpx.Response) -> None:
        response.read()
        echoed = response.headers.get("polar-version", "<none>")
        self.versions_answered[echoed] = self.versions_answered.get(echoed, 0) + 1
        try:
            self.last_body = response.json()
        except ValueError:
            self.last_body = response.text

    def op(self, name: str, call: typing.Callable[[], Json]) -> Json:
        """Runs one operation; answers its raw body (or None when the request failed outright)."""
        self.last_body = None
        try:
            call()
            self.results[name] = {"ok": True}
        except PolarDeserializationError as error:
            self.results[name] = {
                "ok": False,
                "error": type(error).__name__,
                "detail": describe_load_error(error.error),
            }
        except PolarClientError as error:
            detail = getattr(error, "error", None)
            self.results[name] = {
                "ok": False,
                "error": type(error).__name__,
                "detail": f"{error.status_code} {str(detail)[:300]}",
            }
        except Exception as error:  # noqa: BLE001 - every failure is recorded, none stops the run
            self.results[name] = {
                "ok": False,
                "error": type(error).__name__,
                "detail": str(error)[:300] or traceback.format_exc(limit=1)[-300:],
            }
        self.bodies[name] = self.last_body
        return self.last_body

    def id_from(self, name: str, fallback: str | None = None, key: str = "id") -> str | None:
        """The id in the raw answer of an earlier operation (an object, or a page's first item)."""
        body = self.bodies.get(name)
        if isinstance(body, dict):
            if key in body:
                return body[key]
            items = body.get("items")
            if isinstance(items, list) and items and isinstance(items[0], dict):
                return items[0].get(key, fallback)
        return fallback

    def report(self) -> dict[str, Json]:
        return {
            "version": self.version,
            "client_version": type(self.polar).version,
            "polar_version_echoed": list(self.versions_answered) == [self.version],
            "versions_answered": self.versions_answered,
            "operations": self.results,
        }


def describe_load_error(error: BaseException) -> str:
    """adaptix's error tree as `path: message` lines, the first few only."""
    from adaptix.struct_trail import get_trail

    lines: list[str] = []

    def walk(exc: BaseException, trail: list[str]) -> None:
        here = trail + [str(part) for part in get_trail(exc)]
        children = getattr(exc, "exceptions", None)
        if children:
            for child in children:
                walk(child, here)
            return
        text = getattr(exc, "msg", None) or type(exc).__name__
        extra = []
        for attr in ("fields", "input_value", "expected_type"):
            value = getattr(exc, attr, None)
            if value is not None and attr != "input_value":
                extra.append(f"{attr}={sorted(value) if isinstance(value, (set, frozenset)) else value}")
        if type(exc).__name__ in ("BadVariantLoadError", "LoadExceptionGroup") and not extra:
            extra.append(str(exc)[:120])
        lines.append(f"{'.'.join(here) or '<root>'}: {type(exc).__name__} {' '.join(extra)}".strip())

    walk(error, [])
    # A union tries every variant: keep the distinct lines, the first few.
    unique = list(dict.fromkeys(lines))
    return "; ".join(unique[:6]) + (f"; … {len(unique) - 6} more" if len(unique) > 6 else "")


def run(s: Scenario) -> None:
    p = s.polar
    seed = s.seed
    v = s.suffix
    org_id = seed["organization_id"]

    # Organizations
    s.op("organizations.list", lambda: p.organizations.list())
    s.op("organizations.get", lambda: p.organizations.get(org_id))
    s.op("organizations.update", lambda: p.organizations.update(org_id, name=seed["organization_name"]))

    # Webhooks
    s.op(
        "webhooks.create_webhook_endpoint",
        lambda: p.webhooks.create_webhook_endpoint(
            url=f"https://hooks.example.test/{v}", format="raw", events=["order.created"]
        ),
    )
    endpoint_id = s.id_from("webhooks.create_webhook_endpoint")
    s.op("webhooks.list_webhook_endpoints", lambda: p.webhooks.list_webhook_endpoints())
    s.op("webhooks.get_webhook_endpoint", lambda: p.webhooks.get_webhook_endpoint(endpoint_id))
    s.op(
        "webhooks.update_webhook_endpoint",
        lambda: p.webhooks.update_webhook_endpoint(endpoint_id, events=["order.paid"]),
    )
    s.op("webhooks.reset_webhook_endpoint_secret", lambda: p.webhooks.reset_webhook_endpoint_secret(endpoint_id))
    s.op("webhooks.list_webhook_deliveries", lambda: p.webhooks.list_webhook_deliveries())
    s.op(
        "webhooks.redeliver_webhook_event",
        lambda: p.webhooks.redeliver_webhook_event(seed["webhook_event_id"]),
    )
    s.op("webhooks.delete_webhook_endpoint", lambda: p.webhooks.delete_webhook_endpoint(endpoint_id))

    # Custom fields
    s.op(
        "custom_fields.create",
        lambda: p.custom_fields.create(type="text", slug=f"company-{v}", name="Company", properties={}),
    )
    field_id = s.id_from("custom_fields.create")
    s.op("custom_fields.list", lambda: p.custom_fields.list())
    s.op("custom_fields.get", lambda: p.custom_fields.get(field_id))
    s.op("custom_fields.update", lambda: p.custom_fields.update(field_id, type="text", name="Company name"))
    s.op("custom_fields.delete", lambda: p.custom_fields.delete(field_id))

    # Files: announce, PUT the bytes, complete, rename, list, delete
    content = f"a cover for {s.version}".encode()
    digest = base64.b64encode(hashlib.sha256(content).digest()).decode()
    upload = s.op(
        "files.create",
        lambda: p.files.create(
            service="product_media",
            name="cover.png",
            mime_type="image/png",
            size=len(content),
            checksum_sha256_base64=digest,
            upload={
                "parts": [
                    {"number": 1, "chunk_start": 0, "chunk_end": len(content), "checksum_sha256_base64": digest}
                ]
            },
        ),
    )
    file_id = s.id_from("files.create")
    parts = []
    if isinstance(upload, dict):
        for part in upload.get("upload", {}).get("parts", []):
            put = httpx.put(part["url"], headers=part.get("headers") or {}, content=content)
            parts.append(
                {
                    "number": part["number"],
                    "checksum_etag": put.headers.get("etag", ""),
                    "checksum_sha256_base64": part.get("checksum_sha256_base64"),
                }
            )
    upload_info = upload.get("upload", {}) if isinstance(upload, dict) else {}
    s.op(
        "files.uploaded",
        lambda: p.files.uploaded(
            file_id, id=upload_info.get("id"), path=upload_info.get("path"), parts=parts
        ),
    )
    s.op("files.update", lambda: p.files.update(file_id, name="cover-2.png"))
    s.op("files.list", lambda: p.files.list())
    s.op("files.delete", lambda: p.files.delete(file_id))

    # Meters, events and customer meters
    s.op(
        "meters.create",
        lambda: p.meters.create(
            name=f"API calls {v}",
            filter={"conjunction": "and", "clauses": [{"property": "name", "operator": "eq", "value": "call"}]},
            aggregation={"func": "count"},
        ),
    )
    meter_id = s.id_from("meters.create", seed["meter_id"])
    s.op("meters.list", lambda: p.meters.list())
    s.op("meters.get", lambda: p.meters.get(meter_id))
    s.op("meters.update", lambda: p.meters.update(meter_id, name=f"Calls {v}"))
    s.op(
        "meters.quantities",
        lambda: p.meters.quantities(
            seed["meter_id"],
            start_timestamp=seed["since"],
            end_timestamp=seed["until"],
            interval="day",
        ),
    )
    s.op(
        "events.ingest",
        lambda: p.events.ingest(events=[{"name": "call", "external_customer_id": seed["customer_external_id"]}]),
    )
    s.op("events.list", lambda: p.events.list())
    event_id = s.id_from("events.list")
    s.op("events.get", lambda: p.events.get(event_id))
    s.op("events.list_names", lambda: p.events.list_names())
    s.op("event_types.list", lambda: p.event_types.list())
    s.op("customer_meters.list", lambda: p.customer_meters.list())
    customer_meter_id = s.id_from("customer_meters.list")
    s.op("customer_meters.get", lambda: p.customer_meters.get(customer_meter_id))

    # Products and benefits
    s.op("benefits.create", lambda: p.benefits.create(type="custom", description=f"Support {v}", properties={}))
    benefit_id = s.id_from("benefits.create", seed["benefit_id"])
    s.op("benefits.list", lambda: p.benefits.list())
    s.op("benefits.get", lambda: p.benefits.get(benefit_id))
    s.op("benefits.update", lambda: p.benefits.update(benefit_id, type="custom", description=f"Priority support {v}"))
    s.op("benefits.grants", lambda: p.benefits.grants(seed["license_benefit_id"]))
    s.op("benefits.files", lambda: p.benefits.files(seed["downloadables_benefit_id"]))
    s.op("benefit_grants.list", lambda: p.benefit_grants.list())
    s.op(
        "products.create",
        lambda: p.products.create(
            name=f"Widget {v}",
            recurring_interval=None,
            prices=[{"amount_type": "fixed", "price_amount": 1000, "price_currency": "usd"}],
        ),
    )
    product_id = s.id_from("products.create", seed["product_id"])
    # A seat-based price in the version's own shape: seat_tiers up to 2026-10, tiers from 2027-01.
    if v == "2027-01":
        seat_price: Json = {
            "amount_type": "seat_based",
            "price_currency": "usd",
            "tiers": {"type": "graduated", "tiers": [{"bound": 10, "unit_amount": "1000"}, {"unit_amount": "800"}]},
            "minimum_units": 2,
        }
    else:
        seat_price = {
            "amount_type": "seat_based",
            "price_currency": "usd",
            "seat_tiers": {
                "seat_tier_type": "graduated",
                "tiers": [
                    {"min_seats": 2, "max_seats": 10, "price_per_seat": 1000},
                    {"min_seats": 11, "price_per_seat": 800},
                ],
            },
        }
    s.op(
        "products.create_seat_based",
        lambda: p.products.create(name=f"Team plan {v}", recurring_interval="month", prices=[seat_price]),
    )
    seat_product_id = s.id_from("products.create_seat_based")
    s.op("products.get_seat_based", lambda: p.products.get(seat_product_id))
    s.op("products.list", lambda: p.products.list())
    s.op("products.get", lambda: p.products.get(product_id))
    s.op("products.update", lambda: p.products.update(product_id, description="A widget"))
    s.op("products.update_benefits", lambda: p.products.update_benefits(product_id, benefits=[benefit_id]))
    s.op("benefits.delete", lambda: p.benefits.delete(benefit_id))

    # Discounts and checkout links
    s.op(
        "discounts.create",
        lambda: p.discounts.create(type="percentage", duration="once", basis_points=1000, name=f"Ten off {v}"),
    )
    discount_id = s.id_from("discounts.create")
    s.op("discounts.list", lambda: p.discounts.list())
    s.op("discounts.get", lambda: p.discounts.get(discount_id))
    s.op("discounts.update", lambda: p.discounts.update(discount_id, name=f"Ten percent off {v}"))
    s.op("discounts.delete", lambda: p.discounts.delete(discount_id))
    s.op(
        "checkout_links.create",
        lambda: p.checkout_links.create(payment_processor="stripe", products=[product_id]),
    )
    link_id = s.id_from("checkout_links.create")
    s.op("checkout_links.list", lambda: p.checkout_links.list())
    s.op("checkout_links.get", lambda: p.checkout_links.get(link_id))
    s.op("checkout_links.update", lambda: p.checkout_links.update(link_id, label="Launch"))
    s.op("checkout_links.delete", lambda: p.checkout_links.delete(link_id))
    s.op("products.delete", lambda: p.products.delete(product_id))

    # Customers
    email = f"python-{v}@example.test"
    s.op("customers.create", lambda: p.customers.create(email=email, external_id=f"python-{v}"))
    customer_id = s.id_from("customers.create")
    s.op("customers.list", lambda: p.customers.list())
    s.op("customers.get", lambda: p.customers.get(seed["customer_id"]))
    s.op("customers.update", lambda: p.customers.update(customer_id, name="Ada Python"))
    s.op("customers.get_external", lambda: p.customers.get_external(seed["customer_external_id"]))
    s.op("customers.update_external", lambda: p.customers.update_external(f"python-{v}", name="Ada P."))
    s.op("customers.get_state", lambda: p.customers.get_state(seed["customer_id"]))
    s.op("customers.get_state_external", lambda: p.customers.get_state_external(seed["customer_external_id"]))
    s.op("customers.list_payment_methods", lambda: p.customers.list_payment_methods(seed["customer_id"]))
    s.op(
        "customers.list_payment_methods_external",
        lambda: p.customers.list_payment_methods_external(seed["customer_external_id"]),
    )
    s.op("customers.export", lambda: p.customers.export())
    s.op("customers.members.list", lambda: p.customers.members.list(seed["customer_id"]))
    s.op("customers.delete", lambda: p.customers.delete(customer_id))

    # Checkouts (a buyer's calls included)
    s.op("checkouts.create", lambda: p.checkouts.create(products=[seed["product_id"]]))
    checkout_id = s.id_from("checkouts.create")
    client_secret = s.id_from("checkouts.create", key="client_secret")
    s.op("checkouts.list", lambda: p.checkouts.list())
    s.op("checkouts.get", lambda: p.checkouts.get(checkout_id))
    s.op("checkouts.update", lambda: p.checkouts.update(checkout_id, customer_email=email))
    s.op("checkouts.client_get", lambda: p.checkouts.client_get(client_secret))
    s.op("checkouts.client_update", lambda: p.checkouts.client_update(client_secret, customer_name="Ada Python"))

    # Orders, refunds, payments, disputes
    order_id = seed["order_ids"][s.version]
    s.op("orders.list", lambda: p.orders.list())
    s.op("orders.get", lambda: p.orders.get(order_id))
    s.op("orders.update", lambda: p.orders.update(order_id, billing_name="Ada Buyer"))
    s.op("orders.generate_invoice", lambda: p.orders.generate_invoice(order_id))
    s.op("orders.invoice", lambda: p.orders.invoice(order_id))
    s.op("orders.receipt", lambda: p.orders.receipt(order_id))
    s.op("orders.export", lambda: p.orders.export())
    s.op("refunds.create", lambda: p.refunds.create(order_id=order_id, reason="customer_request", amount=100))
    s.op("refunds.list", lambda: p.refunds.list())
    s.op("payments.list", lambda: p.payments.list())
    payment_id = s.id_from("payments.list")
    s.op("payments.get", lambda: p.payments.get(payment_id))
    s.op("disputes.list", lambda: p.disputes.list())
    dispute_id = s.id_from("disputes.list")
    s.op("disputes.get", lambda: p.disputes.get(dispute_id))

    # Subscriptions (each version revokes its own; orders above are each version's own too)
    subscription_id = seed["subscription_ids"][s.version]
    s.op("subscriptions.list", lambda: p.subscriptions.list())
    s.op("subscriptions.get", lambda: p.subscriptions.get(subscription_id))
    s.op("subscriptions.update", lambda: p.subscriptions.update(subscription_id, cancel_at_period_end=True))
    s.op("subscriptions.export", lambda: p.subscriptions.export())
    s.op("subscriptions.revoke", lambda: p.subscriptions.revoke(subscription_id))

    # License keys: the key is read first, since an earlier run may have rotated it
    key_id = seed["license_key_id"]
    s.op("license_keys.list", lambda: p.license_keys.list())
    s.op("license_keys.get", lambda: p.license_keys.get(key_id))
    key = s.id_from("license_keys.get", key="key") or seed["license_key"]
    s.op("license_keys.update", lambda: p.license_keys.update(key_id, limit_usage=100))
    s.op("license_keys.validate", lambda: p.license_keys.validate(key=key, organization_id=org_id))
    s.op(
        "license_keys.activate",
        lambda: p.license_keys.activate(key=key, organization_id=org_id, label=f"laptop {v}"),
    )
    activation_id = s.id_from("license_keys.activate")
    s.op("license_keys.get_activation", lambda: p.license_keys.get_activation(key_id, activation_id))
    s.op(
        "license_keys.deactivate",
        lambda: p.license_keys.deactivate(key=key, organization_id=org_id, activation_id=activation_id),
    )

    # Metrics
    s.op(
        "metrics.get",
        lambda: p.metrics.get(start_date=seed["since"][:10], end_date=seed["until"][:10], interval="day"),
    )
    s.op("metrics.limits", lambda: p.metrics.limits())
    s.op("metrics.list_dashboards", lambda: p.metrics.list_dashboards())

    # The customer portal, with a customer session made through the API
    session = s.op("customer_sessions.create", lambda: p.customer_sessions.create(customer_id=seed["customer_id"]))
    token = session.get("token") if isinstance(session, dict) else None
    portal_order_id = seed["portal_order_ids"][s.version]
    portal = p.customer_portal

    def as_customer(name: str, call: typing.Callable[[dict[str, Json]], Json]) -> Json:
        return s.op(f"customer_portal.{name}", lambda: call({"request_access_token": token}))

    as_customer("customer_session.introspect", lambda t: portal.customer_session.introspect(**t))
    as_customer("customers.get", lambda t: portal.customers.get(**t))
    as_customer("customers.update", lambda t: portal.customers.update(**t, billing_name="Ada Lovelace"))
    as_customer("customers.list_payment_methods", lambda t: portal.customers.list_payment_methods(**t))
    as_customer("organizations.get", lambda t: portal.organizations.get(seed["organization_slug"], **t))
    as_customer("orders.list", lambda t: portal.orders.list(**t))
    as_customer("orders.get", lambda t: portal.orders.get(portal_order_id, **t))
    as_customer("orders.get_payment_status", lambda t: portal.orders.get_payment_status(portal_order_id, **t))
    as_customer("orders.update", lambda t: portal.orders.update(portal_order_id, **t, billing_name="Ada"))
    as_customer("orders.generate_invoice", lambda t: portal.orders.generate_invoice(portal_order_id, **t))
    as_customer("orders.invoice", lambda t: portal.orders.invoice(portal_order_id, **t))
    as_customer("subscriptions.list", lambda t: portal.subscriptions.list(**t))
    as_customer("benefit_grants.list", lambda t: portal.benefit_grants.list(**t))
    grant_id = s.id_from("customer_portal.benefit_grants.list", seed["grant_id"])
    as_customer("benefit_grants.get", lambda t: portal.benefit_grants.get(grant_id, **t))
    as_customer("license_keys.list", lambda t: portal.license_keys.list(**t))
    as_customer("license_keys.get", lambda t: portal.license_keys.get(key_id, **t))
    as_customer(
        "license_keys.validate",
        lambda t: portal.license_keys.validate(**t, key=key, organization_id=org_id),
    )
    as_customer("downloadables.list", lambda t: portal.downloadables.list(**t))
    as_customer("customer_meters.list", lambda t: portal.customer_meters.list(**t))
    portal_meter_id = s.id_from("customer_portal.customer_meters.list")
    as_customer("customer_meters.get", lambda t: portal.customer_meters.get(portal_meter_id, **t))


def main() -> None:
    seed = json.loads(sys.argv[1])
    scenario = Scenario(seed)
    try:
        run(scenario)
    finally:
        print(json.dumps(scenario.report()))


if __name__ == "__main__":
    main()
