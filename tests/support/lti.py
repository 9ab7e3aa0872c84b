"""LTI test rig: the tool (the playground over HTTPS, a test CA from trustme) and a real platform.

The platform (tests/support/lti_platform.py) is served on http://127.0.0.1:<port> and the tool on
https://localhost:<port>: two sites, so inside the course page the tool is a third party.
"""

import contextlib
import html
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import requests
import trustme
from werkzeug.serving import make_server

from server import ROOT, create_app
from tests.support.lti_platform import CLIENT_ID, DEPLOYMENT_ID, Platform


class Served:
    """A WSGI app served in a thread until stopped; restartable on the same port."""

    def __init__(self, app, host: str = "127.0.0.1", port: int = 0, ssl_context=None) -> None:
        self.app, self.host, self.ssl_context = app, host, ssl_context
        self.port = port
        self.start()

    def start(self) -> None:
        self.server = make_server(self.host, self.port, self.app, threaded=True, ssl_context=self.ssl_context)
        self.port = self.server.server_port
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Rig:
    """The CA, the platform and the tool's settings; tools started from them."""

    def __init__(self, folder: Path, database_url: str | None = None) -> None:
        self.folder = folder
        ca = trustme.CA()
        self.ca_file = str(folder / "ca.pem")
        ca.cert_pem.write_to_path(self.ca_file)
        self.ssl = ca.issue_cert("localhost").configure_cert  # applied to an ssl context below
        self.platform = Platform(tool_url="", ca_file=self.ca_file)
        self.platform_server = Served(self.platform.app)
        self.platform.url = f"http://127.0.0.1:{self.platform_server.port}/"
        self.database_url = database_url or f"sqlite:///{folder / 'lti.sqlite3'}"
        self.tools: list = []

    @property
    def issuer(self) -> str:
        return self.platform.url.rstrip("/")

    def tool_config(self, **extra) -> dict:
        return {
            "TESTING": True,
            "VERIFY": True,
            "LTI": True,
            "TIME_LIMIT_MS": 2000,
            "SIGNING_KEY_FILE": str(self.folder / "signing-key.pem"),
            "LTI_KEY_FILE": str(self.folder / "lti-tool-key.pem"),
            "DATABASE_URL": self.database_url,
            "LTI_RETRY_S": 0.2,
            "FRAME_ANCESTORS": f"'self' {self.issuer}",
            "LTI_PRIVATE_ADDRESSES": True,  # the tests' LMS is on loopback
            # a module's tests share one tool and launch from one address, many a minute: the limit of
            # launches per address is test_lti_abuse's to test (it sets its own)
            "LTI_RATE_LIMIT": 1000,
            "OFFLINE": False,
            **extra,
        }

    def start_tool(self, port: int = 0, **extra) -> tuple[Served, str]:
        """Serve the playground over HTTPS on localhost; return the server and its URL."""
        import ssl

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.ssl(context)
        app = create_app(self.tool_config(**extra))
        served = Served(app, port=port, ssl_context=context)
        url = f"https://localhost:{served.port}/"
        self.platform.tool_url = url
        self.tools.append((served, app))
        return served, url

    def stop_tool(self, served: Served) -> None:
        for s, app in self.tools:
            if s is served:
                app.extensions["queue"].stop()
        served.stop()

    def register(self, app=None) -> str:
        """Register the platform with the teacher's command, as docs/lti.md says; return what it printed.

        In a process of its own, as a teacher runs it; or, given the tool's app, the same command in this
        process (its CLI runner, on the app's database and key file): a test's own LMS, which needs the
        registration, not a second Python process to make it (the module's lms runs it as a process)."""
        command = ["lti", "add-platform"]
        command += ["--issuer", self.issuer, "--client-id", CLIENT_ID, "--deployment-id", DEPLOYMENT_ID]
        command += ["--auth-login-url", self.platform.url + "authorize"]
        command += ["--auth-token-url", self.platform.url + "token"]
        command += ["--key-set-url", self.platform.url + "jwks", "--title", "The test LMS"]
        command += ["--tool-url", self.platform.tool_url or "https://localhost/"]
        if app is not None:
            done = app.test_cli_runner().invoke(args=command)
            assert done.exit_code == 0, done.output
            return done.output
        args = [str(Path(sys.executable).parent / "flask"), "--app", "server", *command]
        env = {
            "PATH": "/usr/bin:/bin",
            "PLAYGROUND_DATABASE_URL": self.database_url,
            "PLAYGROUND_LTI_KEY_FILE": str(self.folder / "lti-tool-key.pem"),
        }
        done = subprocess.run(
            args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True
        )
        return done.stdout

    def close(self) -> None:
        self.platform.released.set()
        self.platform.members_released.set()
        for served, app in self.tools:
            app.extensions["queue"].stop()
            with contextlib.suppress(OSError):
                served.stop()
        self.platform_server.stop()


@contextlib.contextmanager
def rig(folder: Path, database_url: str | None = None) -> Iterator[Rig]:
    made = Rig(folder, database_url)
    try:
        yield made
    finally:
        made.close()


FIELD = re.compile(r'name="(?P<name>id_token|state)" value="(?P<value>[^"]*)"')


def login(session: requests.Session, rig: Rig, tool_url: str, user: str, **params) -> str:
    """The LMS's login initiation, followed to the platform's form; return the platform's auth URL."""
    query = {
        "iss": rig.issuer,
        "login_hint": user,
        "target_link_uri": tool_url + "lti/launch",
        "lti_message_hint": "link-1",
        "client_id": CLIENT_ID,
        **params,
    }
    answer = session.get(tool_url + "lti/login", params=query, allow_redirects=False, verify=rig.ca_file)
    assert answer.status_code == 302, answer.text
    return answer.headers["Location"]


def launch_form(session: requests.Session, auth_url: str) -> dict:
    """The platform's answer to the tool's auth request: the id_token and state it would post."""
    answer = session.get(auth_url)
    assert answer.status_code == 200, answer.text
    return {m["name"]: html.unescape(m["value"]) for m in FIELD.finditer(answer.text)}


def nonce_of(auth_url: str) -> str:
    return parse_qs(urlsplit(auth_url).query)["nonce"][0]
