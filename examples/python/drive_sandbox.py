#!/usr/bin/env python3
"""Drive the svc sandbox from Python, with the standard library only.

Starts a detached sandbox (its own config dir, any free port), reads its OpenAPI document at
GET /openapi.json (no key) and finds every operation it uses there by operationId, receives the
webhooks on a local server (checking each X-SVC-Signature with the webhook secret), then:
creates a charge, advances it to paid_pending_settlement (as a payer would pay), moves the
sandbox clock past the settlement hold so it settles, reads it back, and reads the delivery log.
Stops the sandbox at the end, whatever happened.

    python3 drive_sandbox.py                        # `svc` on PATH
    SVC_BIN="node /path/to/bin/run.js" python3 drive_sandbox.py
    python3 drive_sandbox.py --help                 # this text

Prints one JSON object (the charge id, the states it went through, the deliveries) and exits 0;
exits 1 with the reason on stderr when something is not as the document says.
"""

import hashlib
import hmac
import http.server
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

SVC = shlex.split(os.environ.get("SVC_BIN", "svc"))
# A valid test CPF (check digits included): the sandbox checks them.
PAYER_TAX_NUMBER = "529.982.247-25"


class Failure(Exception):
    pass


def svc(args, env):
    result = subprocess.run(SVC + args, env=env, capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise Failure(f"svc {' '.join(args)} exited {result.returncode}: {result.stderr.strip()}")
    return result.stdout


def http_json(method, url, key=None, body=None):
    """One request; returns (status, parsed JSON body). Error statuses are answers too."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


class Api:
    """Calls operations by their operationId, with the paths and methods the document gives."""

    def __init__(self, base_url, key, document):
        self.base_url = base_url
        self.key = key
        self.operations = {}
        for path, item in document["paths"].items():
            for method, operation in item.items():
                if isinstance(operation, dict) and "operationId" in operation:
                    self.operations[operation["operationId"]] = (method.upper(), path, operation)

    def call(self, operation_id, expect, path_params=None, body=None):
        method, path, operation = self.operations[operation_id]
        for name, value in (path_params or {}).items():
            path = path.replace("{" + name + "}", urllib.request.quote(value, safe=""))
        status, answer = http_json(method, self.base_url + path, self.key, body)
        if str(status) not in operation["responses"] and "default" not in operation["responses"]:
            raise Failure(f"{operation_id}: status {status} is not in the document")
        if status != expect:
            raise Failure(f"{operation_id}: expected {expect}, got {status}: {json.dumps(answer)}")
        return answer


class Receiver(http.server.BaseHTTPRequestHandler):
    """The merchant's webhook endpoint: verifies the signature over the raw body, answers 200."""

    secret = b""
    received = []

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("content-length", "0")))
        timestamp = self.headers.get("x-svc-timestamp", "")
        expected = "v1=" + hmac.new(self.secret, timestamp.encode() + b"." + raw, hashlib.sha256).hexdigest()
        verified = hmac.compare_digest(expected, self.headers.get("x-svc-signature", ""))
        event = json.loads(raw)
        Receiver.received.append({"id": event["id"], "type": event["type"], "verified": verified})
        self.send_response(200 if verified else 400)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def wait_for(predicate, seconds=15.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise Failure("timed out waiting for the deliveries")


def drive(env):
    ready = json.loads(svc(["sandbox", "start", "--detach", "--port", "0", "--json", "--no-profile"], env))
    base_url, key = ready["baseUrl"], ready["testKey"]

    status, document = http_json("GET", base_url + "/openapi.json")
    if status != 200 or not document.get("openapi", "").startswith("3.1"):
        raise Failure(f"GET /openapi.json answered {status}")
    api = Api(base_url, key, document)

    Receiver.secret = ready["webhookSecret"].encode()
    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    try:
        api.call("sandboxSetWebhook", 200, body={"url": f"http://127.0.0.1:{receiver.server_port}/webhooks"})

        charge = api.call("createCharge", 201, body={"amountInCents": 1500, "payerTaxNumber": PAYER_TAX_NUMBER, "externalId": "order-42"})
        statuses = [charge["status"]]
        paid = api.call("advanceCharge", 200, {"id": charge["id"]}, {"status": "paid_pending_settlement"})
        statuses.append(paid["status"])

        # The hold elapses on the sandbox's clock, not ours: move it past settlement.estimatedAt.
        hold_ms = paid["settlement"]["delayHours"] * 3600 * 1000 + 1000
        api.call("sandboxAdvanceClock", 200, body={"ms": hold_ms})
        settled = api.call("getCharge", 200, {"id": charge["id"]})
        statuses.append(settled["status"])
        if settled["status"] != "settled" or not settled["settlement"].get("blockchainTxId"):
            raise Failure(f"the charge did not settle: {json.dumps(settled)}")

        wanted = {"charge.awaiting_payment", "charge.paid_pending_settlement", "charge.settled"}

        def delivered():
            log = api.call("sandboxListDeliveries", 200)["data"]
            mine = [d for d in log if charge["id"] in d["body"]]
            done = {d["type"] for d in mine if d["state"] == "succeeded"}
            return mine if wanted <= done else None

        deliveries = wait_for(delivered)
        return {
            "baseUrl": base_url,
            "chargeId": charge["id"],
            "statuses": statuses,
            "deliveries": sorted(({"type": d["type"], "state": d["state"], "attempts": d["attempts"]} for d in deliveries), key=lambda d: d["type"]),
            "verified": sum(1 for r in Receiver.received if r["verified"]),
            "operations": len(api.operations),
        }
    finally:
        receiver.shutdown()


def main():
    if any(arg in ("-h", "--help") for arg in sys.argv[1:]):
        print(__doc__.strip())
        return 0
    if sys.argv[1:]:
        print(f"drive_sandbox: takes no arguments (got {' '.join(sys.argv[1:])}); see --help", file=sys.stderr)
        return 2
    if shutil.which(SVC[0]) is None:
        print(f"drive_sandbox: cannot run {SVC[0]!r}: put svc on PATH, or set SVC_BIN (e.g. SVC_BIN=\"node /path/to/svc/bin/run.js\")", file=sys.stderr)
        return 1
    config_dir = tempfile.mkdtemp(prefix="svc-python-")
    env = dict(os.environ, SVC_CONFIG_DIR=config_dir)
    for name in ("SVC_API_KEY", "SVC_BASE_URL", "SVC_PROFILE"):
        env.pop(name, None)
    try:
        summary = drive(env)
        print(json.dumps(summary))
        return 0
    except (Failure, OSError, KeyError, ValueError, subprocess.SubprocessError) as error:
        print(f"drive_sandbox: {error}", file=sys.stderr)
        return 1
    finally:
        try:
            svc(["sandbox", "stop"], env)
        except (Failure, OSError, subprocess.SubprocessError) as error:
            print(f"drive_sandbox: could not stop the sandbox: {error}", file=sys.stderr)
        shutil.rmtree(config_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
