"""Issue 34's subscription lifecycle through Polar's Python SDK (polar-sdk 1.x), one API version.

Usage: python lifecycle.py '<seed JSON>'   (api/v1/subscription-lifecycle-python.int.test.ts)

The seed names the base URL, an organization access token and the version (2026-04, 2026-10 or
2027-01). Every seller call goes through the version's own client (`from polar.v2026_10 import
Polar`), which loads each answer strictly into its models; the webhooks go through the version's
`validate_event`. Over plain HTTP only the test clocks (our extension, which no SDK has).

Each scenario runs on a clock of its own and is recorded as `{"ok": true}` or `{"ok": false,
"error", "detail"}` (the first failed check, or the SDK's refusal), and the run goes on. It prints
one JSON document: the version the client sent, whether every answer carried it back, the results.
"""

from __future__ import annotations

import datetime
import http.server
import importlib
import json
import sys
import threading
import time
import traceback
import typing
import uuid

import httpx
from polar import PolarDeserializationError
from scenario import describe_load_error

Json = typing.Any
ADDRESS = {"country": "DE", "city": "Berlin", "postal_code": "10117", "line1": "Unter den Linden 1"}


def when(value: str | None) -> datetime.datetime | None:
    """An answer's timestamp as an instant, whatever its spelling of UTC."""
    return None if value is None else datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))


def check(label: str, actual: Json, expected: Json) -> None:
    if actual != expected:
        raise AssertionError(f"{label}: expected {expected!r}, got {actual!r}")


def eventually(read: typing.Callable[[], Json], done: typing.Callable[[Json], bool], timeout: float = 60.0) -> Json:
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if done(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting; last value {value!r}")
        time.sleep(0.2)


class Receiver:
    """A loopback webhook receiver: the deliveries' raw bodies and headers, for validate_event."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str]]] = []
        received = self.received

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("content-length", "0"))
                body = self.rfile.read(length).decode()
                received.append((body, {name.lower(): value for name, value in self.headers.items()}))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args: Json) -> None:
                return

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Run:
    def __init__(self, seed: dict[str, Json]) -> None:
        self.seed = seed
        self.version: str = seed["version"]
        self.module = importlib.import_module(f"polar.v{self.version.replace('-', '_')}")
        self.webhooks = importlib.import_module(f"polar.v{self.version.replace('-', '_')}.webhooks")
        self.polar = self.module.Polar(seed["token"], base_url=seed["base_url"], timeout=30.0)
        self.versions_answered: dict[str, int] = {}
        # The SDK keeps its httpx client private; a response hook reads the echoed Polar-Version.
        self.polar._client._client.event_hooks["response"].append(self._on_response)
        self.http = httpx.Client(
            base_url=f"{seed['base_url']}/v1",
            headers={"authorization": f"Bearer {seed['token']}", "polar-version": self.version},
            timeout=30.0,
        )
        self.results: dict[str, dict[str, Json]] = {}

    def _on_response(self, response: httpx.Response) -> None:
        echoed = response.headers.get("polar-version", "<none>")
        self.versions_answered[echoed] = self.versions_answered.get(echoed, 0) + 1

    def raw(self, method: str, path: str, body: Json = None) -> Json:
        response = self.http.request(method, path, json=body)
        if response.status_code >= 300:
            raise AssertionError(f"{method} {path}: {response.status_code} {response.text[:300]}")
        return response.json() if response.content else None

    def scenario(self, name: str, body: typing.Callable[[], None]) -> None:
        try:
            body()
            self.results[name] = {"ok": True}
        except PolarDeserializationError as error:
            self.results[name] = {"ok": False, "error": type(error).__name__, "detail": describe_load_error(error.error)}
        except Exception as error:  # noqa: BLE001 - every failure is recorded, none stops the run
            self.results[name] = {
                "ok": False,
                "error": type(error).__name__,
                "detail": (str(error) or traceback.format_exc(limit=2))[:600],
            }

    def report(self) -> dict[str, Json]:
        return {
            "version": self.version,
            "client_version": type(self.polar).version,
            "polar_version_echoed": list(self.versions_answered) == [self.version],
            "versions_answered": self.versions_answered,
            "scenarios": self.results,
        }


class Seller:
    """A customer on a clock of its own, frozen at `frozen_time`."""

    def __init__(self, run: Run, frozen_time: str) -> None:
        self.run = run
        self.p = run.polar
        self.clock_id = run.raw("POST", "/test-clocks", {"name": "Lifecycle", "frozen_time": frozen_time})["id"]
        self.customer = self.p.customers.create(email=f"ada-{self.clock_id}@example.test", name="Ada Lovelace")
        run.raw("POST", f"/test-clocks/{self.clock_id}/customers", {"customer_id": self.customer.id})

    def advance_to(self, frozen_time: str) -> None:
        self.run.raw("POST", f"/test-clocks/{self.clock_id}/advance", {"frozen_time": frozen_time})
        eventually(lambda: self.run.raw("GET", f"/test-clocks/{self.clock_id}")["status"], lambda s: s == "ready")

    def monthly(self, name: str, amount: int, **extra: Json) -> Json:
        return self.p.products.create(
            name=f"{name} {uuid.uuid4().hex[:6]}",
            recurring_interval="month",
            prices=[{"amount_type": "fixed", "price_amount": amount, "price_currency": "usd"}],
            **extra,
        )

    def buy(self, product_id: str, card: str = "pm_card_visa", **extra: Json) -> str:
        checkout = self.p.checkouts.create(products=[product_id], customer_id=self.customer.id, **extra)
        self.p.checkouts.client_confirm(
            checkout.client_secret,
            customer_name="Ada Lovelace",
            customer_billing_address=ADDRESS,
            confirmation_token_id=card,
        )
        paid = eventually(lambda: self.p.checkouts.get(checkout.id), lambda c: c.status == "succeeded")
        return paid.subscription_id

    def subscription(self, id: str) -> Json:
        return self.p.subscriptions.get(id)

    def orders(self) -> list[tuple[Json, ...]]:
        page = self.p.orders.list(customer_id=self.customer.id, limit=100, sorting=["created_at"])
        return [
            (order.billing_reason, order.product_id, order.total_amount, order.status, when(order.created_at))
            for order in page.items
        ]


def trial_converted(run: Run) -> None:
    receiver = Receiver()
    try:
        trial_converted_with(run, receiver)
    finally:
        receiver.stop()


def trial_converted_with(run: Run, receiver: Receiver) -> None:
    s = Seller(run, "2026-11-28T10:00:00Z")
    endpoint = s.p.webhooks.create_webhook_endpoint(
        url=receiver.url, format="raw", events=["subscription.created", "subscription.active", "subscription.updated"]
    )
    plan = s.monthly("Pro", 2000, trial_interval="day", trial_interval_count=14)
    check("product trial", (plan.trial_interval, plan.trial_interval_count), ("day", 14))
    sid = s.buy(plan.id)
    sub = s.subscription(sid)
    check("status", sub.status, "trialing")
    check("trial", (when(sub.trial_start), when(sub.trial_end)), (when("2026-11-28T10:00:00Z"), when("2026-12-12T10:00:00Z")))
    check("period end", when(sub.current_period_end), when("2026-12-12T10:00:00Z"))
    check("orders", s.orders(), [("subscription_create", plan.id, 0, "paid", when("2026-11-28T10:00:00Z"))])
    s.advance_to("2026-12-12T11:00:00Z")
    sub = s.subscription(sid)
    check("status", sub.status, "active")
    check("period", (when(sub.current_period_start), when(sub.current_period_end)), (when("2026-12-12T10:00:00Z"), when("2027-01-12T10:00:00Z")))
    check(
        "orders",
        s.orders(),
        [
            ("subscription_create", plan.id, 0, "paid", when("2026-11-28T10:00:00Z")),
            ("subscription_cycle", plan.id, 2000, "paid", when("2026-12-12T10:00:00Z")),
        ],
    )
    # The trial's transitions in the version's models: created and active while trialing, the
    # conversion as subscription.updated (no second .active).
    def seen() -> list[tuple[str, str]]:
        events = [run.webhooks.validate_event(body, headers, endpoint.secret) for body, headers in list(receiver.received)]
        return [(e.type, e.data.status) for e in events]

    kinds = eventually(seen, lambda list_: ("subscription.updated", "active") in list_, 30.0)
    check("created while trialing", ("subscription.created", "trialing") in kinds, True)
    check("one .active", [k for k in kinds if k[0] == "subscription.active"], [("subscription.active", "trialing")])


def trial_cancelled(run: Run) -> None:
    s = Seller(run, "2026-11-28T10:00:00Z")
    plan = s.monthly("Pro", 2000, trial_interval="day", trial_interval_count=14)
    sid = s.buy(plan.id)
    s.advance_to("2026-12-01T10:00:00Z")
    canceling = s.p.subscriptions.update(sid, cancel_at_period_end=True)
    check("canceling", (canceling.status, canceling.cancel_at_period_end, when(canceling.ends_at)), ("trialing", True, when("2026-12-12T10:00:00Z")))
    s.advance_to("2026-12-20T10:00:00Z")
    sub = s.subscription(sid)
    check("ended", (sub.status, when(sub.ended_at)), ("canceled", when("2026-12-12T10:00:00Z")))
    check("orders", s.orders(), [("subscription_create", plan.id, 0, "paid", when("2026-11-28T10:00:00Z"))])


def trial_declined(run: Run) -> None:
    s = Seller(run, "2026-11-28T10:00:00Z")
    receiver = Receiver()
    try:
        endpoint = s.p.webhooks.create_webhook_endpoint(url=receiver.url, format="raw", events=["subscription.past_due"])
        plan = s.monthly("Pro", 2000, trial_interval="day", trial_interval_count=14)
        # The sandbox's 0341 card: saved at the checkout, declined when charged off-session.
        sid = s.buy(plan.id, "pm_card_chargeCustomerFail")
        s.advance_to("2026-12-12T11:00:00Z")
        sub = s.subscription(sid)
        check("past due", (sub.status, when(sub.past_due_at)), ("past_due", when("2026-12-12T10:00:00Z")))
        check(
            "orders",
            s.orders(),
            [
                ("subscription_create", plan.id, 0, "paid", when("2026-11-28T10:00:00Z")),
                ("subscription_cycle", plan.id, 2000, "pending", when("2026-12-12T10:00:00Z")),
            ],
        )
        eventually(lambda: len(receiver.received), lambda n: n >= 1, 30.0)
        events = [run.webhooks.validate_event(body, headers, endpoint.secret) for body, headers in receiver.received]
        check("webhooks", [(e.type, e.data.id, when(e.data.past_due_at)) for e in events], [("subscription.past_due", sid, when("2026-12-12T10:00:00Z"))])
    finally:
        receiver.stop()


def pause_resumes_at(run: Run) -> None:
    s = Seller(run, "2026-03-01T09:00:00Z")
    receiver = Receiver()
    try:
        endpoint = s.p.webhooks.create_webhook_endpoint(
            url=receiver.url, format="raw", events=["subscription.paused", "subscription.resumed"]
        )
        plan = s.monthly("Basic", 1500)
        sid = s.buy(plan.id)
        s.advance_to("2026-03-10T09:00:00Z")
        set_ = s.p.subscriptions.update(sid, pause_at_period_end=True, resumes_at="2026-05-15T09:00:00Z")
        check("set", (set_.status, set_.pause_at_period_end, when(set_.resumes_at)), ("active", True, when("2026-05-15T09:00:00Z")))
        s.advance_to("2026-04-20T09:00:00Z")
        sub = s.subscription(sid)
        check("paused", (sub.status, when(sub.paused_at)), ("paused", when("2026-04-01T09:00:00Z")))
        check("no charge while paused", len(s.orders()), 1)
        s.advance_to("2026-05-20T09:00:00Z")
        sub = s.subscription(sid)
        check("resumed", (sub.status, sub.paused_at, sub.resumes_at), ("active", None, None))
        check("period", (when(sub.current_period_start), when(sub.current_period_end)), (when("2026-05-15T09:00:00Z"), when("2026-06-15T09:00:00Z")))
        check(
            "orders",
            s.orders(),
            [
                ("subscription_create", plan.id, 1500, "paid", when("2026-03-01T09:00:00Z")),
                ("subscription_cycle", plan.id, 1500, "paid", when("2026-05-15T09:00:00Z")),
            ],
        )
        eventually(lambda: len(receiver.received), lambda n: n >= 2, 30.0)
        events = [run.webhooks.validate_event(body, headers, endpoint.secret) for body, headers in receiver.received]
        check("webhooks", sorted((e.type, e.data.id) for e in events), [("subscription.paused", sid), ("subscription.resumed", sid)])
    finally:
        receiver.stop()


def pause_resumed_by_hand(run: Run) -> None:
    s = Seller(run, "2026-03-01T09:00:00Z")
    plan = s.monthly("Basic", 1500)
    sid = s.buy(plan.id)
    s.p.subscriptions.update(sid, pause_at_period_end=True)
    s.advance_to("2026-04-10T12:00:00Z")
    sub = s.subscription(sid)
    check("paused", (sub.status, sub.resumes_at), ("paused", None))
    s.p.subscriptions.update(sid, resume=True)
    sub = eventually(
        lambda: s.subscription(sid),
        lambda value: when(value.current_period_start) == when("2026-04-10T12:00:00Z"),
        30.0,
    )
    check("resumed", (sub.status, when(sub.current_period_end)), ("active", when("2026-05-10T12:00:00Z")))
    # The resumed period is written before its charge settles: its order is pending a moment.
    expected = [
        ("subscription_create", plan.id, 1500, "paid", when("2026-03-01T09:00:00Z")),
        ("subscription_cycle", plan.id, 1500, "paid", when("2026-04-10T12:00:00Z")),
    ]
    check("orders", eventually(s.orders, lambda orders: orders == expected, 30.0), expected)


def next_period_change(run: Run) -> None:
    s = Seller(run, "2026-03-01T09:00:00Z")
    basic = s.monthly("Basic", 1500)
    pro = s.monthly("Pro", 4000)
    sid = s.buy(basic.id)
    s.advance_to("2026-03-12T09:00:00Z")
    scheduled = s.p.subscriptions.update(sid, product_id=pro.id, proration_behavior="next_period")
    check("unchanged now", (scheduled.product_id, scheduled.amount), (basic.id, 1500))
    check("pending", (scheduled.pending_update.product_id, when(scheduled.pending_update.applies_at)), (pro.id, when("2026-04-01T09:00:00Z")))
    s.advance_to("2026-04-02T09:00:00Z")
    sub = s.subscription(sid)
    check("applied", (sub.product_id, sub.amount, sub.pending_update), (pro.id, 4000, None))
    # A second change, back to Basic at the next period, cleared before its renewal.
    s.p.subscriptions.update(sid, product_id=basic.id, proration_behavior="next_period")
    cleared = s.p.subscriptions.update(sid, pending_update=None)
    check("cleared", (cleared.product_id, cleared.pending_update), (pro.id, None))
    s.advance_to("2026-05-02T09:00:00Z")
    check(
        "orders",
        s.orders(),
        [
            ("subscription_create", basic.id, 1500, "paid", when("2026-03-01T09:00:00Z")),
            ("subscription_cycle", pro.id, 4000, "paid", when("2026-04-01T09:00:00Z")),
            ("subscription_cycle", pro.id, 4000, "paid", when("2026-05-01T09:00:00Z")),
        ],
    )


def seat_changes(run: Run) -> None:
    s = Seller(run, "2026-03-01T09:00:00Z")
    # $10 a seat, in the version's own shape (2027-01 writes its rates as decimal text).
    if run.version == "2027-01":
        price: Json = {
            "amount_type": "seat_based",
            "price_currency": "usd",
            "tiers": {"type": "volume", "tiers": [{"unit_amount": "1000.00"}]},
        }
    else:
        price = {
            "amount_type": "seat_based",
            "price_currency": "usd",
            "seat_tiers": {"tiers": [{"min_seats": 1, "max_seats": 50, "price_per_seat": 1000}]},
        }
    plan = s.p.products.create(name=f"Team {uuid.uuid4().hex[:6]}", recurring_interval="month", prices=[price])
    sid = s.buy(plan.id, seats=3)
    # Half of March left: two more seats cost half their month now, in one order.
    s.advance_to("2026-03-16T21:00:00Z")
    more = s.p.subscriptions.update(sid, seats=5, proration_behavior="invoice")
    check("more seats", (more.seats, more.amount), (5, 5000))
    fewer = s.p.subscriptions.update(sid, seats=2, proration_behavior="next_period")
    check("fewer later", (fewer.seats, fewer.pending_update.seats, fewer.pending_update.product_id), (5, 2, plan.id))
    s.advance_to("2026-04-02T09:00:00Z")
    sub = s.subscription(sid)
    check("applied", (sub.seats, sub.amount, sub.pending_update), (2, 2000, None))
    check(
        "orders",
        [(reason, total) for reason, _product, total, _status, _at in s.orders()],
        [("subscription_create", 3000), ("subscription_update", 1000), ("subscription_cycle", 2000)],
    )


def every_three_months(run: Run) -> None:
    s = Seller(run, "2026-01-31T09:00:00Z")
    plan = s.monthly("Quarterly", 6000, recurring_interval_count=3)
    check("cadence", (plan.recurring_interval, plan.recurring_interval_count), ("month", 3))
    sid = s.buy(plan.id)
    s.advance_to("2028-01-30T09:00:00Z")
    days = ["2026-01-31", "2026-04-30", "2026-07-31", "2026-10-31", "2027-01-31", "2027-04-30", "2027-07-31", "2027-10-31"]
    check(
        "orders",
        s.orders(),
        [
            ("subscription_create" if i == 0 else "subscription_cycle", plan.id, 6000, "paid", when(f"{day}T09:00:00Z"))
            for i, day in enumerate(days)
        ],
    )
    sub = s.subscription(sid)
    check("period", (when(sub.current_period_start), when(sub.current_period_end)), (when("2027-10-31T09:00:00Z"), when("2028-01-31T09:00:00Z")))


def meter_cycles(run: Run) -> None:
    s = Seller(run, "2026-01-31T09:00:00Z")
    meter = s.p.meters.create(
        name=f"Calls {uuid.uuid4().hex[:6]}",
        filter={"conjunction": "and", "clauses": [{"property": "name", "operator": "eq", "value": "calls"}]},
        aggregation={"func": "count"},
    )
    plan = s.p.products.create(
        name=f"Yearly API {uuid.uuid4().hex[:6]}",
        recurring_interval="year",
        meter_interval="month",
        prices=[
            {"amount_type": "fixed", "price_amount": 12000, "price_currency": "usd"},
            {"amount_type": "metered_unit", "meter_id": meter.id, "price_currency": "usd", "unit_amount": "50"},
        ],
    )
    check("cycle", (plan.meter_interval, plan.meter_interval_count), ("month", 1))
    sid = s.buy(plan.id)
    sub = s.subscription(sid)
    check(
        "meter period",
        (when(sub.current_period_end), when(sub.current_meter_period_start), when(sub.current_meter_period_end)),
        (when("2027-01-31T09:00:00Z"), when("2026-01-31T09:00:00Z"), when("2026-02-28T09:00:00Z")),
    )
    s.p.events.ingest(
        events=[
            {"name": "calls", "customer_id": s.customer.id, "timestamp": f"2026-02-0{day}T12:00:00Z"}
            for day in (1, 2, 3, 4)
        ]
    )
    # Ingested events are counted by the meter shortly after: the estimate shows when.
    eventually(lambda: run.raw("GET", f"/subscriptions/{sid}/upcoming-invoice")["total_amount"], lambda total: total == 200)
    s.advance_to("2026-03-05T00:00:00Z")
    sub = s.subscription(sid)
    check(
        "cycled",
        (when(sub.current_period_start), when(sub.current_meter_period_start), when(sub.current_meter_period_end)),
        (when("2026-01-31T09:00:00Z"), when("2026-02-28T09:00:00Z"), when("2026-03-31T09:00:00Z")),
    )
    check(
        "orders",
        s.orders(),
        [
            ("subscription_create", plan.id, 12000, "paid", when("2026-01-31T09:00:00Z")),
            ("subscription_meter_cycle", plan.id, 200, "paid", when("2026-02-28T09:00:00Z")),
        ],
    )


SCENARIOS: dict[str, typing.Callable[[Run], None]] = {
    "trial_converted": trial_converted,
    "trial_cancelled": trial_cancelled,
    "trial_first_charge_declined": trial_declined,
    "pause_resumed_at_resumes_at": pause_resumes_at,
    "pause_resumed_by_hand": pause_resumed_by_hand,
    "next_period_change_applied_and_cleared": next_period_change,
    "seat_changes_now_and_at_the_renewal": seat_changes,
    "every_three_months_two_years": every_three_months,
    "meter_cycles_monthly_on_a_yearly_plan": meter_cycles,
}


def main() -> None:
    run = Run(json.loads(sys.argv[1]))
    try:
        for name, scenario in SCENARIOS.items():
            run.scenario(name, lambda scenario=scenario: scenario(run))
    finally:
        print(json.dumps(run.report()))


if __name__ == "__main__":
    main()
