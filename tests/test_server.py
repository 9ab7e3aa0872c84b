"""The server: the page, the cases, the engine archive and the types the runtime needs."""

import io
import json
import subprocess
import sys
import zipfile

from tests import solutions


def page_config(client):
    html = client.get("/").get_data(as_text=True)
    start = html.index('<script type="application/json" id="config">') + len(
        '<script type="application/json" id="config">'
    )
    return json.loads(html[start : html.index("</script>", start)])


def test_page_shows_the_exercise_and_the_starter(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Run backpropagation in the right order" in html
    assert "class Value:" in html  # the engine, shown read-only
    config = page_config(client)
    assert config["starter"].startswith("def backward(out):")
    assert config["timeLimitMs"] == 5000


def test_page_hands_over_the_cases_with_expected_gradients(client, cases):
    assert page_config(client)["cases"] == cases
    assert client.get("/cases.json").get_json() == cases


def test_page_urls_are_built_from_the_request(client):
    urls = page_config(client)["urls"]
    assert urls == {
        "worker": "/static/js/worker.js",
        "pyodide": "/static/build/pyodide/",
        "engine": "/engine.zip",
    }


def test_reference_never_reaches_the_browser(client):
    html = client.get("/").get_data(as_text=True)
    assert "reversed(order)" not in html and "graded_cases" not in html
    names = zipfile.ZipFile(io.BytesIO(client.get("/engine.zip").data)).namelist()
    assert "engine/reference.py" not in names
    assert {"engine/__init__.py", "engine/value.py", "engine/grade.py", "engine/fresh.py"} <= set(names)


def test_engine_archive_grades_on_its_own(client, tmp_path, cases):
    zipfile.ZipFile(io.BytesIO(client.get("/engine.zip").data)).extractall(tmp_path)
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    script = (
        "import json; from engine.grade import grade; "
        f"print(grade({solutions.CORRECT!r}, json.load(open('cases.json')))['passed'])"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True)
    assert out.stdout.strip() == "True", out.stderr


def test_engine_archive_is_the_same_bytes_each_time(client):
    assert client.get("/engine.zip").data == client.get("/engine.zip").data


def test_mime_types_for_the_runtime(client):
    assert client.get("/static/build/pyodide/pyodide.asm.wasm").mimetype == "application/wasm"
    assert client.get("/static/build/pyodide/pyodide.mjs").mimetype == "text/javascript"
    assert client.get("/static/build/pyodide/pyodide.asm.mjs").mimetype == "text/javascript"
    assert client.get("/static/js/worker.js").mimetype == "text/javascript"
    assert client.get("/static/build/main.js").mimetype == "text/javascript"
    assert client.get("/engine.zip").mimetype == "application/zip"


def test_time_limit_is_configurable():
    from server import create_app

    app = create_app({"TIME_LIMIT_MS": 1500})
    assert page_config(app.test_client())["timeLimitMs"] == 1500
