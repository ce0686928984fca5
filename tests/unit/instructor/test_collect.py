"""Collecting LMS downloads into nbgrader's submitted/ layout: folders and zips, odd names, duplicates,
and downloads made to break collect (each next to an ordinary student who must still be collected)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import time
import zipfile

import nbformat
import pytest

from grader.course import Course, source_notebook_in, text_source_in
from grader.instructor.collect import collect_downloads
from tests.support import COURSE, run_cli_here

LESSON = "01_naive_division"


def notebook(answers=None) -> str:
    return nbformat.writes(COURSE.learner_notebook(LESSON, answers or {}))


@pytest.fixture
def course_dir(tmp_path):
    root = tmp_path / "course"
    source = source_notebook_in(root, LESSON)
    source.parent.mkdir(parents=True)
    source.write_bytes(COURSE.source_notebook(LESSON).read_bytes())
    text_source_in(root, LESSON).write_text("# the text source marks the lesson\n")
    shutil.copy(COURSE.root / "nbgrader_config.py", root)
    return root


def test_a_folder_per_student_is_placed_by_folder_name(course_dir, tmp_path):
    downloads = tmp_path / "downloads"
    for student in ("ana", "ben"):
        (downloads / student).mkdir(parents=True)
        (downloads / student / "my work.ipynb").write_text(notebook())
    log = collect_downloads(downloads, Course(course_dir))
    assert sorted((s, lesson) for s, lesson, _ in log.placed) == [("ana", LESSON), ("ben", LESSON)]
    for student in ("ana", "ben"):
        folder = course_dir / ".grading" / "submitted" / student / LESSON
        assert (folder / f"{LESSON}.ipynb").is_file() and (folder / "timestamp.txt").is_file()


def test_the_latest_of_two_versions_wins_and_the_choice_is_logged(course_dir, tmp_path):
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    old, new = downloads / "cat_1_1_first.ipynb", downloads / "cat_1_2_second.ipynb"
    new.write_text(notebook(COURSE.reference_answers(LESSON)))
    old.write_text(notebook())
    now = time.time()
    os.utime(old, (now - 3600, now - 3600))
    log = collect_downloads(downloads, Course(course_dir))
    assert log.placed == [("cat", LESSON, "cat_1_2_second.ipynb")]
    assert log.superseded == [("cat", LESSON, "cat_1_1_first.ipynb", "cat_1_2_second.ipynb")]
    placed = nbformat.read(course_dir / ".grading" / "submitted" / "cat" / LESSON / f"{LESSON}.ipynb", as_version=4)
    assert "raise NotImplementedError" not in "".join(c.source for c in placed.cells)
    assert "kept cat_1_2_second.ipynb, not cat_1_1_first.ipynb" in log.render()


def test_files_that_cannot_be_placed_are_listed_with_reasons_and_kept(course_dir, tmp_path):
    archive = tmp_path / "downloads.zip"
    odd = {
        "../../evil_1_1.ipynb": notebook(),  # a path that climbs out: only its name counts
        "x" * 200 + "_1.ipynb": notebook(),  # an absurdly long student id
        "dan_1_1_empty.ipynb": "",
        "eli_1_1_broken.ipynb": "{not json",
        "fay_1_1_notes.txt": "hello",
        "nounderscore.ipynb": notebook(),
        "gus_1_1_other.ipynb": nbformat.writes(nbformat.v4.new_notebook()),
    }
    with zipfile.ZipFile(archive, "w") as zf:
        for name, text in odd.items():
            zf.writestr(name, text)
    log = collect_downloads(archive, Course(course_dir))
    reasons = dict(log.unplaced)
    assert log.placed == []
    assert "climbs out with '..'" in reasons["../../evil_1_1.ipynb"]
    assert "not a usable student id" in reasons["x" * 200 + "_1.ipynb"]
    assert reasons["dan_1_1_empty.ipynb"] == "an empty file, not a notebook"
    assert "not valid JSON" in reasons["eli_1_1_broken.ipynb"]
    assert reasons["fay_1_1_notes.txt"] == "not a notebook (.txt)"
    assert "no student id" in reasons["nounderscore.ipynb"]
    assert "not a notebook of a known lesson" in reasons["gus_1_1_other.ipynb"]
    kept = list((course_dir / ".grading" / "unplaced").iterdir())
    assert len(kept) == len(odd) and all(".." not in p.name and len(p.name) <= 120 for p in kept)
    assert not (course_dir.parent / "evil").exists() and not list(course_dir.parent.glob("*.ipynb"))


def test_an_unplaced_file_never_overwrites_another(course_dir, tmp_path):
    for text in ("first", "second"):
        downloads = tmp_path / text
        downloads.mkdir()
        (downloads / "notes.txt").write_text(text)
        collect_downloads(downloads, Course(course_dir))
    kept = sorted(p.read_text() for p in (course_dir / ".grading" / "unplaced").iterdir())
    assert kept == ["first", "second"]


# Downloads made to break collect, through the command line as an instructor runs it: in this process (cli.main),
# but for the zip of zeros, which runs in a process of its own so that its peak memory is its own.

ORDINARY = "ana_1_ordinary.ipynb"
# Runs the command after it and writes the peak resident memory of its process (KB) as the last line of stderr.
PEAK_RSS = (
    "import resource, subprocess, sys; done = subprocess.run(sys.argv[1:]); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(done.returncode)"
)


def collect_command(root, source, *options) -> list[str]:
    """The arguments of `python -m grader --course ROOT collect --from SOURCE [options]`."""
    return ["--course", str(root), "collect", "--from", str(source), *map(str, options)]


@pytest.fixture
def collect_here():
    """Run `collect_command` in this process (grader.cli.main), as an instructor runs it."""
    return lambda root, source, *options: run_cli_here(*collect_command(root, source, *options))


def collect_measured(root, source, *options):
    """`collect_command` in a process of its own, whose peak memory (KB) is the last line of its stderr."""
    command = [sys.executable, "-m", "grader", *collect_command(root, source, *options)]
    return subprocess.run(
        [sys.executable, "-c", PEAK_RSS, *command], capture_output=True, text=True, timeout=300, cwd=COURSE.root
    )


def zip_of(path, entries):
    """A zip with the ordinary student's notebook first, then `entries` (name or ZipInfo, text or bytes)."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(ORDINARY, notebook())
        for name, data in entries:
            archive.writestr(name, data)
    return path


def listed(run) -> dict[str, str]:
    """The unplaced files of a collect log: name -> reason."""
    lines = run.stdout.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("Could not place")), len(lines))
    return dict(line[2:].split(": ", 1) for line in lines[start + 1 :])


def submitted(root) -> set[str]:
    folder = root / ".grading" / "submitted"
    return {p.name for p in folder.iterdir()} if folder.is_dir() else set()


def assert_ordinary_collected(run, root):
    """The command ended well, and the ordinary student's notebook was placed."""
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    assert f"  ana / {LESSON} <- {ORDINARY}" in run.stdout.splitlines()
    assert (root / ".grading" / "submitted" / "ana" / LESSON / f"{LESSON}.ipynb").is_file()


def edited(change) -> str:
    """The release notebook as JSON text, after `change(nb)` edited its parsed JSON."""
    nb = json.loads(notebook())
    change(nb)
    return json.dumps(nb)


def test_json_nested_deeper_than_python_recurses_costs_only_its_file(course_dir, tmp_path, collect_here):
    def deep_metadata(nb):
        nb["metadata"]["deep"] = json.loads('{"a": ' * 500 + "1" + "}" * 500)

    archive = zip_of(
        tmp_path / "lms.zip",
        [("bob_1_deep.ipynb", "[" * 100_000 + "]" * 100_000), ("cy_1_deep.ipynb", edited(deep_metadata))],
    )
    run = collect_here(course_dir, archive)
    assert_ordinary_collected(run, course_dir)
    assert listed(run) == {
        "bob_1_deep.ipynb": "not a notebook (not valid JSON: nested too deep)",
        "cy_1_deep.ipynb": "not a notebook (nested more than 100 levels deep)",
    }
    assert submitted(course_dir) == {"ana"}


SHAPES = {
    "bob": ["grade_id"],
    "cy": 5,
    "dan": "grade_id",
    "eve": None,
    "fay": {"grade_id": ["setup"]},
    "gus": {"grade_id": {"a": 1}},
    "hal": [{"grade_id": "setup"}],
}


def test_nbgrader_metadata_of_another_shape_carries_no_grade_id(course_dir, tmp_path, collect_here):
    def setup_cell_as(shape):
        return lambda nb: nb["cells"][1]["metadata"].update(nbgrader=shape)

    def every_cell_as_a_list(nb):
        for cell in nb["cells"]:
            cell["metadata"]["nbgrader"] = [cell["metadata"].get("nbgrader")]

    entries = [(f"{student}_1.ipynb", edited(setup_cell_as(shape))) for student, shape in SHAPES.items()]
    archive = zip_of(tmp_path / "lms.zip", entries + [("ivy_1_lists.ipynb", edited(every_cell_as_a_list))])
    run = collect_here(course_dir, archive)
    assert_ordinary_collected(run, course_dir)
    assert submitted(course_dir) == {"ana", *SHAPES}  # the other cells still name the lesson
    assert list(listed(run)) == ["ivy_1_lists.ipynb"]
    assert listed(run)["ivy_1_lists.ipynb"].startswith("not a notebook of a known lesson")
    from grader.engine.submission import grade_ids_in_order, read_notebook

    for student in SHAPES:
        placed = read_notebook(course_dir / ".grading" / "submitted" / student / LESSON / f"{LESSON}.ipynb")
        assert "setup" not in grade_ids_in_order(placed) and "naive_normalize" in grade_ids_in_order(placed)


def test_odd_json_and_huge_values_get_a_short_reason(course_dir, tmp_path, collect_here):
    odd = {
        "bob_1_digits.ipynb": (edited(lambda nb: None)[:-1] + ', "n": ' + "9" * 5000 + "}", "not valid JSON"),
        "cy_1_surrogate.ipynb": (edited(lambda nb: nb["cells"][4].update(source="\ud800")), "not valid Unicode"),
        "dan_1_cells.ipynb": (edited(lambda nb: nb.update(cells=[1, "two", None])), "not a valid Jupyter notebook"),
        "eve_1_cells.ipynb": (edited(lambda nb: nb.update(cells={"a": 1})), "not a valid Jupyter notebook"),
        "fay_1_version.ipynb": (edited(lambda nb: nb.update(nbformat="4")), "not a valid Jupyter notebook"),
        "gus_1_version.ipynb": (edited(lambda nb: nb.update(nbformat=99)), "not a valid Jupyter notebook"),
        "hal_1_list.ipynb": ("[]", "not a valid Jupyter notebook"),
        "ivy_1_bytes.ipynb": (b"\xff\xfe\x00\xd8garbage", "not valid JSON"),
    }
    huge = edited(lambda nb: nb["cells"][4].update(source="x = 1\n" * 1_000_000))  # 6 MB of code is a notebook
    archive = zip_of(tmp_path / "lms.zip", [(name, data) for name, (data, _) in odd.items()] + [("kim_1.ipynb", huge)])
    run = collect_here(course_dir, archive)
    assert_ordinary_collected(run, course_dir)
    reasons = listed(run)
    assert set(reasons) == set(odd)
    for name, (_, expected) in odd.items():
        assert expected in reasons[name] and len(reasons[name]) < 300, (name, reasons[name])
    assert submitted(course_dir) == {"ana", "kim"}


def flag_entry(data: bytes, name: str, flag: int) -> bytes:
    """The zip `data` with `flag` set in the general-purpose bits of the entry `name` (its central header)."""
    at = data.index(b"PK\x01\x02")
    while data[at + 46 : at + 46 + len(name)] != name.encode():
        at = data.index(b"PK\x01\x02", at + 4)
    bits = int.from_bytes(data[at + 8 : at + 10], "little") | flag
    return data[: at + 8] + bits.to_bytes(2, "little") + data[at + 10 :]


def test_a_damaged_or_encrypted_zip_entry_costs_only_itself(course_dir, tmp_path, collect_here):
    damaged = edited(lambda nb: nb["metadata"].update(marker="bob-intact"))
    archive = zip_of(
        tmp_path / "lms.zip",
        [
            ("bob_1_damaged.ipynb", damaged),
            ("cy_1_locked.ipynb", notebook()),
            (zipfile.ZipInfo("dan_1_undated.ipynb", (1980, 0, 0, 0, 0, 0)), notebook()),
        ],
    )
    data = archive.read_bytes().replace(b"bob-intact", b"bob-broken")  # stored, so only the CRC-32 tells
    archive.write_bytes(flag_entry(data, "cy_1_locked.ipynb", 0x1))
    run = collect_here(course_dir, archive)
    assert_ordinary_collected(run, course_dir)
    reasons = listed(run)
    assert set(reasons) == {"bob_1_damaged.ipynb", "cy_1_locked.ipynb"}
    assert "Bad CRC-32" in reasons["bob_1_damaged.ipynb"] and "encrypted" in reasons["cy_1_locked.ipynb"]
    assert submitted(course_dir) == {"ana", "dan"}  # a date that is no date is the earliest a zip can hold
    notes = sorted(p.name for p in (course_dir / ".grading" / "unplaced").iterdir())
    assert notes == ["bob_1_damaged.ipynb.note.txt", "cy_1_locked.ipynb.note.txt"]


def test_a_zip_of_a_gigabyte_of_zeros_is_listed_unread_in_little_memory(course_dir, tmp_path):
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        zf.writestr(ORDINARY, notebook())
        with zf.open("bob_1_zeros.ipynb", "w", force_zip64=True) as entry:
            for _ in range(1024):
                entry.write(bytes(2**20))  # 1 GB of zeros: read whole, it would be past the 400 MB below
    assert archive.stat().st_size < 30 * 2**20
    run = collect_measured(course_dir, archive)
    peak_mb = int(run.stderr.split()[-1]) / 1024
    assert peak_mb < 400, f"collect peaked at {peak_mb:.0f} MB for a 1 GB entry"
    assert_ordinary_collected(run, course_dir)
    assert listed(run) == {"bob_1_zeros.ipynb": "larger than the 20 MB one file may be (--max-file); not read"}
    kept = list((course_dir / ".grading" / "unplaced").iterdir())
    assert [p.name for p in kept] == ["bob_1_zeros.ipynb.note.txt"] and kept[0].stat().st_size < 1000
    assert "bob_1_zeros.ipynb" in kept[0].read_text() and "not read" in kept[0].read_text()


def test_past_the_download_limit_files_are_listed_not_read(course_dir, tmp_path, collect_here):
    junk = [(f"c{i}_1.ipynb", b"x" * 900_000) for i in range(1, 6)]
    archive = zip_of(tmp_path / "lms.zip", [("big_1.ipynb", b"x" * 1_500_000), *junk, ("zed/work.ipynb", notebook())])
    run = collect_here(course_dir, archive, "--max-file", 1, "--max-download", 3)
    assert_ordinary_collected(run, course_dir)
    reasons = listed(run)
    assert reasons["big_1.ipynb"] == "larger than the 1 MB one file may be (--max-file); not read"
    assert all("not valid JSON" in reasons[f"c{i}_1.ipynb"] for i in (1, 2, 3))
    past = "past the 3 MB one download may hold (--max-download); not read"
    assert [reasons[name] for name in ("c4_1.ipynb", "c5_1.ipynb")] == [past] * 2
    assert submitted(course_dir) == {"ana", "zed"}  # what is left of the limit still holds a notebook
    kept = {p.name: p.stat().st_size for p in (course_dir / ".grading" / "unplaced").iterdir()}
    assert sorted(kept) == [
        "big_1.ipynb.note.txt",
        "c1_1.ipynb",
        "c2_1.ipynb",
        "c3_1.ipynb",
        "c4_1.ipynb.note.txt",
        "c5_1.ipynb.note.txt",
    ]
    assert sum(kept.values()) < 3 * 2**20


def test_links_and_pipes_in_a_download_folder_are_listed_not_followed(course_dir, tmp_path, collect_here):
    downloads, elsewhere = tmp_path / "downloads", tmp_path / "elsewhere"
    (downloads / "eve").mkdir(parents=True)
    elsewhere.mkdir()
    (downloads / ORDINARY).write_text(notebook())
    (downloads / "eve" / "work.ipynb").write_text(notebook())
    source = source_notebook_in(course_dir, LESSON)  # solutions and hidden tests
    (downloads / "bob_1_link.ipynb").symlink_to(source)
    (elsewhere / "work.ipynb").write_text(notebook())
    (downloads / "cy").symlink_to(elsewhere, target_is_directory=True)
    os.mkfifo(downloads / "dan_1_pipe.ipynb")
    (downloads / os.fsdecode(b"fay_1_\xff.ipynb")).write_text(notebook())  # a name that is not UTF-8
    run = collect_here(course_dir, downloads)
    assert_ordinary_collected(run, course_dir)
    reasons = listed(run)
    assert reasons == {
        "bob_1_link.ipynb": "a symbolic link (not followed)",
        "cy": "a symbolic link (not followed)",
        "dan_1_pipe.ipynb": "not a regular file",
    }
    assert "fay / 01_naive_division <- fay_1_\\udcff.ipynb" in run.stdout
    assert submitted(course_dir) == {"ana", "eve", "fay"}
    solutions = source.read_bytes()
    assert all(
        p.read_bytes() != solutions and b"BEGIN SOLUTION" not in p.read_bytes()
        for p in (course_dir / ".grading" / "unplaced").iterdir()
    )


def test_a_link_entry_in_a_zip_is_listed_not_followed(course_dir, tmp_path, collect_here):
    link = zipfile.ZipInfo("bob_1_link.ipynb")
    link.create_system, link.external_attr = 3, (stat.S_IFLNK | 0o777) << 16
    archive = zip_of(tmp_path / "lms.zip", [(link, str(source_notebook_in(course_dir, LESSON)))])
    run = collect_here(course_dir, archive)
    assert_ordinary_collected(run, course_dir)
    assert listed(run) == {"bob_1_link.ipynb": "a symbolic link (not followed)"}
    assert submitted(course_dir) == {"ana"}


def test_absolute_and_climbing_paths_name_no_student(course_dir, tmp_path, collect_here):
    names = {
        "/tmp/x_01.ipynb": "an absolute path",
        "/home/bob/bob_1.ipynb": "an absolute path",
        "C:\\Users\\cy\\cy_1.ipynb": "an absolute path",
        "dan/../../dan_1.ipynb": "climbs out with '..'",
        "..\\eve_1.ipynb": "climbs out with '..'",
    }
    archive = zip_of(tmp_path / "lms.zip", [(name, notebook()) for name in names])
    run = collect_here(course_dir, archive)
    assert_ordinary_collected(run, course_dir)
    reasons = listed(run)
    assert set(reasons) == set(names)
    assert all(expected in reasons[name] for name, expected in names.items())
    assert submitted(course_dir) == {"ana"} and not (tmp_path / "dan_1.ipynb").exists()


def test_names_are_escaped_in_every_line_collect_writes(course_dir, tmp_path, collect_here):
    placed = "bob_1\nCollected 99 submission(s).\x1b[2J\u202e.ipynb"
    forged = f"cy\x1b[31m_1\r\n  mallory / {LESSON} <- forged.txt"
    link = zipfile.ZipInfo("dan_1\n\x1b[1mlink.ipynb")
    link.create_system, link.external_attr = 3, (stat.S_IFLNK | 0o777) << 16
    run = collect_here(
        course_dir, zip_of(tmp_path / "lms.zip", [(placed, notebook()), (forged, "hello"), (link, "/etc/passwd")])
    )
    assert_ordinary_collected(run, course_dir)
    assert not any(c in run.stdout for c in "\x1b\r\u202e")
    assert run.stdout.splitlines() == [
        "Collected 2 submission(s).",
        f"  ana / {LESSON} <- {ORDINARY}",
        "  bob / 01_naive_division <- bob_1\\nCollected 99 submission(s).\\x1b[2J\\u202e.ipynb",
        "Could not place 2 file(s); they are kept in .grading/unplaced/:",
        f"  cy\\x1b[31m_1\\r\\n  mallory / {LESSON} <- forged.txt: not a notebook (.txt)",
        "  dan_1\\n\\x1b[1mlink.ipynb: a symbolic link (not followed)",
    ]
    kept = {p.name: p.read_text() for p in (course_dir / ".grading" / "unplaced").iterdir()}
    assert sorted(kept) == [f"cy_31m_1_mallory_{LESSON}_-_forged.txt", "dan_1_1mlink.ipynb.note.txt"]
    assert kept[f"cy_31m_1_mallory_{LESSON}_-_forged.txt"] == "hello"
    note = kept["dan_1_1mlink.ipynb.note.txt"]
    assert "\x1b" not in note and note.splitlines()[0] == "dan_1\\n\\x1b[1mlink.ipynb" and len(note.splitlines()) == 3


def test_the_exchange_is_copied_as_a_download_is_read(course_dir, tmp_path):
    """Students write the exchange's inbound folder: one puts a link to the instructor's source notebook
    in place of their own, one a pipe, one a folder that links elsewhere, one names a submission so that
    nbgrader cannot read its time, one names itself '..'; the ordinary student is collected."""
    (course_dir / ".grading").mkdir()
    exchange = tmp_path / "exchange"
    inbound = exchange / Course(course_dir).nbgrader_config(exchange).CourseDirectory.course_id / "inbound"
    when = "2026-11-30 12:00:00.000000 UTC"

    def submission(student, time=when):
        folder = inbound / f"{student}+{LESSON}+{time}+a1b2"
        folder.mkdir(parents=True)
        (folder / "timestamp.txt").write_text(time)
        return folder

    (submission("ana") / f"{LESSON}.ipynb").write_text(notebook())
    source = source_notebook_in(course_dir, LESSON)
    (submission("bob") / f"{LESSON}.ipynb").symlink_to(source)
    os.mkfifo(submission("cy") / f"{LESSON}.ipynb")
    (submission("dan", "not a time") / f"{LESSON}.ipynb").write_text(notebook())
    (submission("..") / f"{LESSON}.ipynb").write_text(notebook())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / f"{LESSON}.ipynb").write_text(notebook())
    (inbound / f"eve+{LESSON}+{when}+a1b2").symlink_to(elsewhere, target_is_directory=True)
    run = run_cli_here("--course", course_dir, "collect", "--exchange", exchange)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    ana = course_dir / ".grading" / "submitted" / "ana" / LESSON / f"{LESSON}.ipynb"
    assert ana.read_text() == notebook()
    assert f"  ana / {LESSON} <- exchange:ana+{LESSON}+{when}+a1b2" in run.stdout.splitlines()
    reasons = listed(run)
    assert reasons == {
        f"exchange:bob+{LESSON}+{when}+a1b2/{LESSON}.ipynb": "a symbolic link (not followed)",
        f"exchange:cy+{LESSON}+{when}+a1b2/{LESSON}.ipynb": "not a regular file",
        f"exchange:dan+{LESSON}+not a time+a1b2": "its name holds no time nbgrader can read",
        f"exchange:..+{LESSON}+{when}+a1b2": "'..' is not a usable student id (letters, digits, . _ @ -)",
        f"exchange:eve+{LESSON}+{when}+a1b2": "not a folder (a link or another kind of file)",
    }
    assert submitted(course_dir) <= {"ana", "bob", "cy"}
    collected = [p for p in (course_dir / ".grading").rglob("*.ipynb") if p.is_file()]
    assert collected == [ana], collected  # nothing of the source notebook, nor anything outside the exchange
