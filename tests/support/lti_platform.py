"""A real LTI 1.3 platform for the tests: the lti1p3platform library behind a small Flask site.

It plays the course's LMS: a course page that launches the playground in an iframe (OIDC login
initiation, the authentication response as an auto-submitted form, an id_token the library signs
with the platform's RSA key), its JWKS, an OAuth 2 token endpoint (client credentials with a
JWT assertion the library checks against the tool's JWKS), and AGS line items whose scores it keeps
in a gradebook, as an LMS does: the latest score a tool posts for a learner is the one it holds, and,
as Moodle does, a score not newer than the one held is refused with a 409.
"""

import threading
from urllib.parse import urlencode

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from flask import Flask, jsonify, redirect, render_template_string, request
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.membership import Context
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.oidc_login import OIDCLoginAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request, TRequest
from lti1p3platform.score import UpdateScoreStatus
from lti1p3platform.service_connector import AssignmentsGradesService, NamesRoleProvisioningService

CLIENT_ID = "playground-client"
DEPLOYMENT_ID = "deployment-1"
COURSE = "Machine Learning 101"
LINEITEM = "backprop"

FORM = """<!doctype html><title>Launching</title>
<form method="post" action="{{ launch_url }}" id="form">
<input type="hidden" name="id_token" value="{{ id_token }}">
<input type="hidden" name="state" value="{{ state }}">
</form><script>document.getElementById("form").submit()</script>"""

COURSE_PAGE = """<!doctype html><title>{{ course }}</title><h1>{{ course }}</h1>
<iframe id="tool" title="Backprop playground" src="{{ start }}" width="1200" height="900"></iframe>"""


class EarlierScore(Exception):
    """A score not newer than the one the gradebook holds: Moodle refuses it with a 409."""


def rsa_pair() -> tuple[str, str]:
    """A new RSA key pair, PEM: private, public."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public = (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    return private, public


class FlaskPlatformRequest(Request):
    """lti1p3platform's view of a Flask request."""

    def build_metadata(self, req) -> TRequest:
        return {
            "method": req.method,
            "form_data": req.form.to_dict(),
            "get_data": req.args.to_dict(),
            "headers": req.headers,
            "content_type": req.content_type,
            "path": req.path,
            "json": req.get_json(silent=True),
        }


class Platform:
    """The LMS: its registration of the tool, its keys, its course and gradebook."""

    def __init__(self, tool_url: str, ca_file: str) -> None:
        self.tool_url = tool_url  # https://localhost:PORT/
        self.ca_file = ca_file  # the tool's test CA: the platform fetches the tool's JWKS over HTTPS
        self.private_key, self.public_key = rsa_pair()
        self.url = ""  # set once served
        self.gradebook: dict[tuple[str, str], dict] = {}  # (line item, user) -> the score it holds
        self.scores_posted: list[dict] = []
        self.content_items: list[dict] = []  # what Deep Linking responses added to the course
        # Deep Linking's settings: whether one response may add several items (Canvas's assignment
        # selection says false); own_lineitems: each added activity launches with a grade column of its own
        # (its resource link id), as an LMS makes one per line item, else all share LINEITEM's.
        self.accept_multiple: bool | str = True
        self.own_lineitems = False
        self.links: dict[str, dict] = {}  # each added item by its resource link id (added-1, ...)
        self.changed = threading.Condition()
        self.scores_delay = 0.0  # seconds the scores endpoint takes to answer (an LMS that hangs)
        self.scores_refusal: int | None = None  # a status the scores endpoint answers every score with
        self.score_requests = 0  # scores posted to it, taken or not
        self.released = threading.Event()  # set: every wait ends (teardown)
        self.key_set_fetches = 0
        # Who a login_hint launches as, when not a learner of COURSE: roles, course (id, title), locale, name,
        # claims besides.
        self.people: dict[str, dict] = {}
        # The course's roster (NRPS): its members, served members_page_size a page with a Link header to
        # the next; every request's query is noted; members_refusal: a status every request gets instead;
        # members_body: the text every request gets instead (200, JSON's type); members_link: the Link
        # header's next page instead of its own; members_delay: seconds it takes to answer (an LMS that
        # hangs), unless members_released is set first.
        self.members: list[dict] = []
        self.members_page_size = 2
        self.members_requests: list[dict] = []
        self.members_refusal: int | None = None
        self.members_body: str | None = None
        self.members_link: str | None = None
        self.members_delay = 0.0
        self.members_released = threading.Event()
        self.app = self.make_app()

    def registration(self) -> Registration:
        return (
            Registration()
            .set_iss(self.url.rstrip("/"))
            .set_client_id(CLIENT_ID)
            .set_deployment_id(DEPLOYMENT_ID)
            .set_launch_url(self.tool_url + "lti/launch")
            .set_deeplink_launch_url(self.tool_url + "lti/launch")
            .set_oidc_login_url(self.tool_url + "lti/login")
            .set_tool_key_set_url(self.tool_url + "lti/jwks.json")
            .set_platform_public_key(self.public_key)
            .set_platform_private_key(self.private_key)
        )

    def conf(self) -> LTI1P3PlatformConfAbstract:
        platform = self

        class Conf(LTI1P3PlatformConfAbstract):
            def init_platform_config(self, **kwargs) -> None:
                self._registration = platform.registration()

            def get_registration_by_params(self, **kwargs) -> Registration:
                return platform.registration()

            def fetch_public_key(self, key_set_url: str):
                return requests.get(key_set_url, timeout=10, verify=platform.ca_file).json()

        return Conf()

    def sign(self, claims: dict, expiration: int = 300) -> str:
        """An id_token as the platform signs one (for the refusal tests' altered launches)."""
        return self.registration().platform_encode_and_sign(dict(claims), expiration=expiration)

    def wait_for_score(self, user: str, timeout: float = 30, lineitem: str = LINEITEM) -> dict:
        """Block until the gradebook holds a score for user (in lineitem's column); return it."""
        with self.changed:
            if not self.changed.wait_for(lambda: (lineitem, user) in self.gradebook, timeout):
                raise TimeoutError(f"no score for {user} in {timeout} s: {self.scores_posted}")
            return self.gradebook[(lineitem, user)]

    def make_app(self) -> Flask:
        platform = self
        app = Flask("lti_platform")

        class Login(OIDCLoginAbstract):
            def set_lti_message_hint(self, **kwargs) -> None:
                self._lti_message_hint = kwargs["hint"]

            def get_redirect(self, url: str):
                return redirect(url)

        class Launch(LTIAdvantageMessageLaunchAbstract):
            def get_preflight_response(self) -> dict:
                return self._request.get_data

            def prepare_launch(self, preflight_response: dict) -> None:
                user = preflight_response["login_hint"]
                hint = preflight_response.get("lti_message_hint", "link-1")
                if hint in ("deep-link", "deep-link-learner"):  # adding an activity: LtiDeepLinkingRequest
                    role = "Learner" if hint == "deep-link-learner" else "Instructor"
                    self.set_user_data(user, [f"http://purl.imsglobal.org/vocab/lis/v2/membership#{role}"])
                    self.set_launch_context_claim("course-1", context_title=COURSE)
                    if "locale" in platform.people.get(user, {}):  # the teacher's LMS language
                        presentation = "https://purl.imsglobal.org/spec/lti/claim/launch_presentation"
                        self.set_extra_claims({presentation: {"locale": platform.people[user]["locale"]}})
                    self.set_dl(
                        platform.url + "deep-link-return",
                        title="Add an activity",
                        accept_types={"ltiResourceLink"},
                    )
                    settings = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
                    self._deep_linking_launch_data[settings]["accept_multiple"] = platform.accept_multiple
                    return
                person = platform.people.get(user, {})
                roles = person.get("roles", ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"])
                self.set_user_data(user, roles, full_name=person.get("name"))
                added = platform.links.get(hint)  # an activity a Deep Linking response added: its title
                self.set_resource_link_claim(hint, title=added.get("title") if added else None)
                context_id, title = person.get("course", ("course-1", COURSE))
                self.set_launch_context_claim(context_id, context_title=title)
                if "locale" in person:
                    presentation = "https://purl.imsglobal.org/spec/lti/claim/launch_presentation"
                    self.set_extra_claims({presentation: {"locale": person["locale"]}})
                self.set_extra_claims(person.get("claims", {}))
                if added and added.get("custom"):  # its custom parameters in each launch, as LMSs send them
                    self.set_extra_claims(
                        {"https://purl.imsglobal.org/spec/lti/claim/custom": added["custom"]}
                    )
                base = platform.url + "lineitems"
                column = hint if added and platform.own_lineitems else LINEITEM
                self.set_ags(lineitems_url=base, lineitem_url=f"{base}/{column}")

            def render_launch_form(self, launch_data: dict, **kwargs):
                return render_template_string(FORM, **launch_data)

        class Grades(AssignmentsGradesService):
            def update_score(self, line_item_id: str, score) -> UpdateScoreStatus:
                with platform.changed:
                    held = platform.gradebook.get((line_item_id, score["userId"]))
                    if held and held["timestamp"] >= score["timestamp"]:  # Moodle's rule: newer scores only
                        raise EarlierScore()
                    platform.scores_posted.append({"lineitem": line_item_id, **score})
                    platform.gradebook[(line_item_id, score["userId"])] = score  # the latest, as LMSs keep
                    platform.changed.notify_all()
                return UpdateScoreStatus.SUCCESS

            def find_lineitems(self, *args, **kwargs):
                return {"content": [], "has_next": False, "next": None}

            def find_lineitem(self, line_item_id: str):
                return {
                    "id": f"{platform.url}lineitems/{line_item_id}",
                    "scoreMaximum": 1,
                    "label": "Backprop",
                }

            def create_lineitem(self, creation_data):
                return creation_data

            def update_lineitem(self, update_data):
                return update_data

            def delete_lineitem(self, line_item_id: str) -> None:
                return None

            def get_results(self, *args, **kwargs):
                return {"content": [], "has_next": False, "next": None}

        class Roster(NamesRoleProvisioningService):
            def get_member_data_page(self, page: str = "1", **query) -> dict:
                size, first = platform.members_page_size, (int(page) - 1) * platform.members_page_size
                content = [dict(m) for m in platform.members[first : first + size]]
                return {"content": content, "has_next": first + size < len(platform.members)}

            def get_context_by_id(self) -> Context:
                return Context(id="course-1", label="ML101", title=COURSE)

            def is_resource_link_valid(self, context_id: str, resource_link_id: str) -> bool:
                return resource_link_id.startswith("link-")

        @app.get("/memberships")
        def memberships():
            platform.members_requests.append(request.args.to_dict())
            if platform.members_delay and not platform.members_released.is_set():
                platform.members_released.wait(platform.members_delay)
            if platform.members_body is not None:
                return platform.members_body, 200, {"Content-Type": "application/json"}
            if platform.members_refusal is not None:
                return jsonify(message="Names and roles are off for this course"), platform.members_refusal
            service = Roster(FlaskPlatformRequest(request), platform.conf(), platform.url + "memberships")
            answer = service.handle_resp(service.handle_get_members)
            response = jsonify(answer.result if answer.code == 200 else {"message": answer.message})
            response.status_code, response.mimetype = answer.code, answer.media_type
            page = int(request.args.get("page", "1"))
            if answer.code == 200 and page * platform.members_page_size < len(platform.members):
                following = request.args.to_dict() | {"page": str(page + 1)}
                link = platform.members_link or f"{request.base_url}?{urlencode(following)}"
                response.headers["Link"] = f'<{link}>; rel="next"'
            return response

        @app.get("/course")
        def course():
            query = urlencode({"user": request.args["user"], "link": request.args.get("link", "link-1")})
            return render_template_string(COURSE_PAGE, course=COURSE, start=f"/start?{query}")

        @app.get("/start")
        def start():
            login = Login(FlaskPlatformRequest(request), platform.conf())
            login.set_lti_message_hint(hint=request.args.get("link", "link-1"))
            return login.initiate_login(request.args["user"])

        @app.get("/authorize")
        def authorize():
            return Launch(FlaskPlatformRequest(request), platform.conf()).lti_launch()

        @app.post("/deep-link-return")
        def deep_link_return():
            items = platform.conf().validate_deeplinking_resp(request.form.to_dict())
            if len(items) > 1 and platform.accept_multiple in (False, "false"):  # it said one at a time
                return "<!doctype html><title>Refused</title><h1>One activity at a time</h1>", 400
            platform.content_items.extend(items)
            for item in items:  # each a resource link of the course, launched by its own hint
                platform.links[f"added-{len(platform.links) + 1}"] = item
            return f"<!doctype html><title>Added</title><h1>Added {len(items)} activity</h1>"

        @app.get("/jwks")
        def jwks():
            platform.key_set_fetches += 1
            conf = platform.conf()
            return jsonify(conf.get_jwks())

        @app.post("/token")
        def token():
            return jsonify(platform.conf().get_access_token(request.form.to_dict()))

        @app.post("/lineitems/<line_item>/scores")
        def scores(line_item: str):
            platform.released.wait(platform.scores_delay)
            platform.score_requests += 1
            if platform.scores_refusal is not None:  # a refusal, as an LMS says one (Moodle: 400, 403, 404)
                return jsonify(message="No such user in this course"), platform.scores_refusal
            base = platform.url + "lineitems"
            service = Grades(FlaskPlatformRequest(request), platform.conf(), base, f"{base}/{line_item}")
            try:
                answer = service.handle_resp(service.handle_update_score, line_item_id=line_item)
            except EarlierScore:  # as Moodle answers (mod/lti/service/gradebookservices)
                return jsonify(message="Refusing score with an earlier timestamp for item and user"), 409
            return jsonify(message=answer.message), answer.code

        return app
