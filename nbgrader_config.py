"""nbgrader configuration: this repository is the course directory.

Lesson sources live in solutions/, the generated student release in notebooks/,
and everything grading produces (gradebook, submissions, exchange) in the
git-ignored .grading/ folder.
"""
from pathlib import Path

c = get_config()  # noqa: F821 (provided by traitlets when it loads this file)
course_root = Path(__file__).resolve().parent
grading = course_root / ".grading"

c.CourseDirectory.course_id = "softmax"
c.CourseDirectory.root = str(course_root)
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "notebooks"
c.CourseDirectory.submitted_directory = ".grading/submitted"
c.CourseDirectory.autograded_directory = ".grading/autograded"
c.CourseDirectory.feedback_directory = ".grading/feedback"
c.CourseDirectory.db_url = f"sqlite:///{grading / 'gradebook.db'}"
# The jupytext text source of each lesson stays out of the student release.
c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", "*.py"]
c.Exchange.root = str(grading / "exchange")
c.Exchange.path_includes_course = True
# nbgrader's feedback (formgrader's Generate Feedback) is made from the autograded notebook, which holds the
# hidden tests: they are taken out of its test cells first, or every student reads them on their feedback page;
# and, as long as HiddenTestFeedback (below) withholds them, what a failed one called and expected with them.
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
    "grader.instructor.nbgrader_feedback.WithholdHiddenInputs",
    "nbgrader.preprocessors.ClearHiddenTests",
]
# What a student's feedback page shows of a failed hidden test (grader/course/feedback_policy.py): before the
# lesson's due date, or with none, the mistake and the properties it checks, never what it called and expected;
# after the due date those too ("after_due") or still not ("never"), for every lesson or lesson by lesson.
c.HiddenTestFeedback.show_inputs = "after_due"
c.HiddenTestFeedback.lessons = {}  # e.g. {"05_stable_softmax": "never"}
# The grading service's policy (`python -m grader serve`; grader/course/service_policy.py): release each graded
# hand-in's feedback at once ("every_submission") or once the lesson's due date has passed ("after_due"), and grade
# at most `attempts` of a student's hand-ins of a lesson (0: no limit); `collect` by hand follows the same limit.
# c.GradingService.feedback = "every_submission"
# c.GradingService.attempts = 0
# c.GradingService.lessons = {"05_stable_softmax": {"feedback": "after_due", "attempts": 3}}
# A late hand-in's penalty is nbgrader's own, from its due date (`nbgrader db assignment add LESSON --duedate=...`,
# a student's extension included) and the exchange's receipt of the hand-in: "none" (the default) or "zero".
# c.LateSubmissionPlugin.penalty_method = "zero"
