"""The escoba command: shapes of its JSON, one-line errors, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from commands import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_captures_json_matches_the_issue(capsys):
    code, out, _ = run(capsys, "captures", "--table", "3o", "5c", "8e", "10b", "--card", "7o",
                       "--json")
    assert code == 0
    assert json.loads(out) == {"card": "7o", "captures": [["8e"], ["3o", "5c"]]}


def test_captures_for_a_hand(capsys):
    code, out, _ = run(capsys, "captures", "--table", "3o", "5c", "8e", "10b", "--hand", "7o",
                       "9b", "--json")
    assert code == 0
    assert json.loads(out) == {"hand": [{"card": "7o", "captures": [["8e"], ["3o", "5c"]]},
                                        {"card": "9b", "captures": []}]}
    code, out, _ = run(capsys, "captures", "--table", "3o", "5c", "--hand", "7o")
    assert "3o + 5c" in out


@pytest.mark.parametrize("argv", [
    ["captures", "--table", "3o", "7x", "--card", "7o"],
    ["captures", "--table", "3o", "--card", "3o"],
    ["captures", "--table", "3o"],
    ["simulate", "--games", "0"],
    ["simulate", "--players", "random", "wizard"],
    ["simulate", "--rules", "nosuch"],
    ["simulate", "--players", "random", "random", "random", "random", "random"],
    ["simulate", "--set", "teams=true"],
    ["simulate", "--set", "target"],
    ["replay", "/nonexistent/game.json"],
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1


def test_argparse_errors_are_one_line_too():
    done = subprocess.run([sys.executable, "-m", "commands", "simulate", "--games", "lots"],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and len(done.stderr.strip().splitlines()) == 1


def test_simulate_json_and_record_dir(capsys, tmp_path: Path):
    code, out, _ = run(capsys, "simulate", "--games", "6", "--players", "random", "random",
                       "random", "random", "--teams", "--seed", "3", "--record-dir",
                       str(tmp_path), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 6 and data["rounds"] >= 6
    assert len(data["wins"]) == 2 and sum(data["wins"]) + data["unfinished"] == 6
    assert data["rounds_per_second"] > 0 and data["elapsed"] > 0
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 6
    code, out, _ = run(capsys, "replay", str(files[0]), "--json")
    replayed = json.loads(out)
    assert code == 0 and replayed["complete"] is True
    assert set(replayed["rounds"][0]["points"][0]) == {"cards", "oros", "siete_de_oros",
                                                       "sevens", "setenta", "escobas"}
    assert len(replayed["totals"]) == 2 and replayed["winner"] in (0, 1)


def test_simulate_is_deterministic_with_a_seed(capsys):
    first = json.loads(run(capsys, "simulate", "--games", "5", "--seed", "9", "--json")[1])
    second = json.loads(run(capsys, "simulate", "--games", "5", "--seed", "9", "--json")[1])
    assert first["wins"] == second["wins"] and first["rounds"] == second["rounds"]


def test_rules_lists_presets_and_options(capsys):
    code, out, _ = run(capsys, "rules", "--json")
    data = json.loads(out)
    assert set(data["presets"]) == {"classic", "setenta", "relaxed", "escova"}
    assert data["presets"]["relaxed"]["capture_rule"] == "optional"
    assert "capture_sum" in data["options"]


def test_console_script_and_module_both_run():
    done = subprocess.run([sys.executable, "-m", "commands", "--help"], capture_output=True,
                          text=True)
    assert done.returncode == 0 and "captures" in done.stdout


# -- issue 25: the cases a fuzzer found (exit 2, one line, bounded counts, -o -) -----------


@pytest.mark.parametrize("argv, says", [
    (["captures", "--table", "3o", "--card", ""], "--card: an empty card"),
    (["captures", "--table", "", "3o", "--card", "7o"], "--table: an empty card"),
    (["captures", "--table", "3o", "--hand", "7o", " "], "--hand: an empty card"),
    (["captures", "--table", "3o", "--card", "7o 8o"], "--card takes one card"),
    (["simulate", "--games", "99999999999999999999999"], "1 to 100,000"),
    (["simulate", "--games", "-3"], "1 to 100,000"),
    (["simulate", "--games", "2", "--record-dir", ""], "--record-dir: give a folder"),
    (["arena", "--bots", "random", "random", "--rounds", "1" + "0" * 30], "1 to 100,000"),
    (["worksheet", "--kind", "captures", "--level", "1", "-o", ""], "-o/--output"),
])
def test_each_odd_input_is_one_line_with_its_own_sentence(capsys, argv, says):
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1
    assert says in err and "internal error" not in err


def test_a_record_with_a_5000_digit_number_is_refused_in_our_words(capsys, tmp_path):
    record = tmp_path / "big.json"
    record.write_text('{"format": "escoba-record/1", "seed": ' + "9" * 5000 + "}", "utf-8")
    code, _, err = run(capsys, "replay", str(record))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "a number of 5000 digits" in err and "sys.set_int_max_str_digits" not in err


def test_a_worksheet_to_standard_output_is_the_pdf_itself(tmp_path):
    done = subprocess.run([sys.executable, "-m", "commands", "worksheet", "--kind", "captures",
                           "--level", "1", "--count", "2", "-o", "-"], capture_output=True,
                          cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.startswith(b"%PDF-")
    assert b"standard output" in done.stderr
    assert list(tmp_path.iterdir()) == []  # no file named "-"


def test_arena_help_shows_a_plain_percent():
    done = subprocess.run([sys.executable, "-m", "commands", "arena", "--help"],
                          capture_output=True, text=True)
    assert done.returncode == 0 and "95% confidence" in " ".join(done.stdout.split())
    assert "%%" not in done.stdout


# -- teacher accounts (issue 27) -------------------------------------------------------------

def test_teacher_create_makes_the_first_account_and_invite_prints_a_working_code(
        capsys, monkeypatch, tmp_path):
    """A school's IT person: the first account from the command line (the passphrase on
    stdin, never an argument), then invitation codes the app's form takes."""
    import io

    import sqlalchemy as sa

    from trainer.classroom import ClassroomError, TeacherAuth
    from trainer.storage import Storage

    db = tmp_path / "school.db"
    monkeypatch.setattr(sys, "stdin", io.StringIO("seven oros on the table\n"))
    code, out, _ = run(capsys, "teacher", "create", "Ms Díaz", "--db", str(db),
                       "--password-stdin")
    assert code == 0 and "Ms Díaz" in out and "first" in out
    auth = TeacherAuth(Storage(sa.create_engine(f"sqlite:///{db}")))
    assert auth.sign_in("ms diaz", "seven oros on the table").teacher.name == "Ms Díaz"
    with pytest.raises(ClassroomError, match="auth.invite_needed"):  # the app's form now
        auth.create_account("Mr Roe", "seven oros on the table")
    code, out, _ = run(capsys, "teacher", "invite", "--db", str(db))
    assert code == 0
    invitation = out.split("Invitation code: ")[1].split()[0]
    assert auth.create_account("Mr Roe", "seven oros on the table", invitation)
    # Refusals: one line in English, exit code 2, nothing made.
    for stdin, name, says in (("short\n", "Ms Sanz", "at least 10 characters"),
                              ("seven oros on the table\n", "MS DIAZ", "already a teacher")):
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        code, _, err = run(capsys, "teacher", "create", name, "--db", str(db))
        assert code == 2 and says in err and err.count("\n") == 1
    with pytest.raises(ClassroomError, match="auth.wrong"):
        auth.sign_in("Ms Sanz", "short")


def test_the_teacher_command_finds_the_database_the_app_finds(tmp_path, monkeypatch) -> None:
    """A server whose secrets.toml names its PostgreSQL by parts (Streamlit's ``dialect``,
    ``host``...): ``escoba teacher`` made its accounts in data/escoba.db instead (review
    of issue 27)."""
    from trainer.storage import app_database
    from trainer.teacher_cli import database_url

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ESCOBA_DATABASE_URL", raising=False)
    monkeypatch.delenv("ESCOBA_DB_PATH", raising=False)
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "secrets.toml").write_text(
        '[connections.escoba]\ndialect = "postgresql"\ndriver = "psycopg"\n'
        'host = "db.school"\nport = 5432\ndatabase = "escoba"\nusername = "app"\n'
        'password = "s3cret"\n')
    url = "postgresql+psycopg://app:s3cret@db.school:5432/escoba"
    assert database_url() == url
    assert app_database(None, None, {"dialect": "postgresql", "driver": "psycopg",
                                     "host": "db.school", "port": 5432, "database": "escoba",
                                     "username": "app", "password": "s3cret"}) == (url, True)
    monkeypatch.setenv("ESCOBA_DATABASE_URL", "sqlite:///other.db")
    assert database_url() == "sqlite:///other.db"
    monkeypatch.delenv("ESCOBA_DATABASE_URL")
    (tmp_path / ".streamlit" / "secrets.toml").unlink()
    assert database_url() == "sqlite:///data/escoba.db"
