"""The parse cache of bundled YAML files (accelsim/_yaml_cache.py): a warm
start reads JSON instead of importing PyYAML, an edited file is parsed again,
and a cache that cannot be used only costs a parse."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from accelsim import _yaml_cache
from accelsim.tracegen.examples import write_vecadd


@pytest.fixture
def bundled(tmp_path, monkeypatch):
    """A stand-in bundled data folder and a private cache folder."""
    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setattr(_yaml_cache, "data_dir", lambda: data)
    monkeypatch.setenv("ACCELSIM_CACHE_DIR", str(tmp_path / "cache"))
    return data


class Parser:
    def __init__(self, value):
        self.value, self.calls = value, 0

    def __call__(self, path):
        self.calls += 1
        return self.value(path) if callable(self.value) else self.value


def test_second_read_comes_from_the_cache(bundled):
    f = bundled / "a.yaml"
    f.write_text("x: 1\n")
    parse = Parser(lambda p: {"text": p.read_text(), "n": [1, 2.5, None, True]})
    first = _yaml_cache.bundled_document(f, "t", parse)
    second = _yaml_cache.bundled_document(f, "t", parse)
    assert first == second == {"text": "x: 1\n", "n": [1, 2.5, None, True]}
    assert parse.calls == 1


def test_an_edited_file_is_parsed_again(bundled):
    f = bundled / "a.yaml"
    f.write_text("x: 1\n")
    parse = Parser(lambda p: p.read_text())
    _yaml_cache.bundled_document(f, "t", parse)
    f.write_text("x: 22\n")
    st = f.stat()
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert _yaml_cache.bundled_document(f, "t", parse) == "x: 22\n"
    assert _yaml_cache.bundled_document(f, "t", parse) == "x: 22\n"
    assert parse.calls == 2
    assert len(list((bundled.parent / "cache").iterdir())) == 1  # the new version replaced the old


def test_kinds_of_one_file_are_kept_apart(bundled):
    f = bundled / "a.yaml"
    f.write_text("x: 1\n")
    assert _yaml_cache.bundled_document(f, "one", Parser(1)) == 1
    assert _yaml_cache.bundled_document(f, "two", Parser(2)) == 2
    assert _yaml_cache.bundled_document(f, "one", Parser(3)) == 1


@pytest.mark.parametrize("value", [{1: "int key"}, {"when": __import__("datetime").date(2026, 1, 1)},
                                   ("a", "tuple")])
def test_data_json_cannot_hold_exactly_is_never_cached(bundled, value):
    f = bundled / "a.yaml"
    f.write_text("x\n")
    parse = Parser(value)
    assert _yaml_cache.bundled_document(f, "t", parse) == value
    assert _yaml_cache.bundled_document(f, "t", parse) == value
    assert parse.calls == 2


def test_a_users_file_is_always_parsed(bundled, tmp_path):
    f = tmp_path / "mine.yaml"
    f.write_text("x: 1\n")
    parse = Parser({"x": 1})
    _yaml_cache.bundled_document(f, "t", parse)
    _yaml_cache.bundled_document(f, "t", parse)
    assert parse.calls == 2 and not (tmp_path / "cache").exists()


def test_corrupt_entries_and_an_unusable_cache_only_cost_a_parse(bundled, tmp_path, monkeypatch):
    f = bundled / "a.yaml"
    f.write_text("x: 1\n")
    parse = Parser({"x": 1})
    _yaml_cache.bundled_document(f, "t", parse)
    for entry in (tmp_path / "cache").iterdir():
        entry.write_text('{"key": [1, "t"')  # cut short
    assert _yaml_cache.bundled_document(f, "t", parse) == {"x": 1} and parse.calls == 2
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the folder would go")
    monkeypatch.setenv("ACCELSIM_CACHE_DIR", str(blocked / "cache"))
    assert _yaml_cache.bundled_document(f, "t", parse) == {"x": 1} and parse.calls == 3


def test_an_empty_cache_dir_setting_turns_it_off(bundled, tmp_path, monkeypatch):
    monkeypatch.setenv("ACCELSIM_CACHE_DIR", "")
    f = bundled / "a.yaml"
    f.write_text("x: 1\n")
    parse = Parser({"x": 1})
    _yaml_cache.bundled_document(f, "t", parse)
    _yaml_cache.bundled_document(f, "t", parse)
    assert parse.calls == 2 and _yaml_cache.cache_dir() is None


_CONFIG_PROBE = """
import json, sys
from accelsim.config import files
cfg = files.load_config("QV100")
print(json.dumps({"config": cfg.to_dict(), "lines": files._read_yaml(files._resolve("QV100"))[1],
                  "yaml": "yaml" in sys.modules}, sort_keys=True, default=str))
"""


def _probe(code: str, cache: str, *args: str) -> dict:
    env = {**os.environ, "ACCELSIM_CACHE_DIR": cache}
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_cached_config_is_the_parsed_one(tmp_path):
    cold = _probe(_CONFIG_PROBE, str(tmp_path / "cache"))
    warm = _probe(_CONFIG_PROBE, str(tmp_path / "cache"))
    off = _probe(_CONFIG_PROBE, "")
    assert cold["yaml"] and off["yaml"] and not warm["yaml"]
    assert cold["config"] == warm["config"] == off["config"]
    assert cold["lines"] == warm["lines"] == off["lines"] and warm["lines"]["name"] >= 1


_RUN_PROBE = """
import contextlib, io, json, sys
from accelsim.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = main(sys.argv[1:])
result = json.loads(out.getvalue())
result.pop("wall_time_s", None)
print(json.dumps({"code": code, "yaml": "yaml" in sys.modules, "result": result}, sort_keys=True))
"""


def test_a_warm_run_json_does_not_import_yaml_and_prints_the_same(tmp_path):
    trace = write_vecadd(tmp_path / "small", n=1024)
    cache = str(tmp_path / "cache")
    cold = _probe(_RUN_PROBE, cache, "run", str(trace), "--json")
    warm = _probe(_RUN_PROBE, cache, "run", str(trace), "--json")
    assert cold["code"] == warm["code"] == 0
    assert cold["yaml"] and not warm["yaml"]
    assert cold["result"] == warm["result"]
