"""The instructor's room: collect submissions, grade a class into the gradebook, and write results,
feedback, exports and the class report from it."""
