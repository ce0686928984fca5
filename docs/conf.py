"""The documentation site (make docs): Sphinx with MyST-NB, built offline from pip packages alone.

The course's pages are the lessons' releases, executed at every build by course_pages.py (see there why and how);
the command line's reference is read from grader/cli.py's parser (sphinx-argparse). Nothing is fetched while
building or reading: no intersphinx, MathJax served from the site (sphinx-mathjax-offline), and widgets shown as
the picture their output keeps rather than through a script from a CDN.
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # course_pages; the grader package (its parsers, the course) is installed

import course_pages  # noqa: E402

project = "Softmax, step by step"
author = "the course's authors"
copyright = "the course's authors"

extensions = ["myst_nb", "sphinxarg.ext", "sphinx-mathjax-offline"]
exclude_patterns = ["_build", "images", "HUB-BROWSER-NOTES.md", "**/.ipynb_checkpoints", "course_pages.py"]

# MyST: $...$ and $$...$$ as the lessons write math; anchors for links such as COURSE.md#the-lessons-in-order
myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 4

# The lessons arrive executed (course_pages.py): MyST-NB renders them as they are.
nb_execution_mode = "off"
# A failed cell's output is one line (course_pages.py), with the colour of its error's name as the lab shows it.
nb_render_error_lexer = "myst-ansi"
# Lesson 04's slider: its output keeps a picture of the figure, which the page shows without the widget's scripts.
nb_ipywidgets_js = {}
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]

html_theme = "sphinx_book_theme"
html_title = project
# no download button: the site keeps no copies of its sources (a reader who wants a lesson runs `make lab`)
html_theme_options = {"show_toc_level": 2, "home_page_in_toc": True, "use_download_button": False}
html_last_updated_fmt = None
html_show_sourcelink = False
html_copy_source = False


def write_course_pages(app) -> None:
    course_pages.write_course(course_pages.Course(course_pages.REPOSITORY), HERE / "course")


def setup(app):
    app.connect("builder-inited", write_course_pages)
