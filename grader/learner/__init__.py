"""The learner's room: the only code importable in, and mounted into, a learner's kernel.

The checks, the comparison and diagnosis they do, the misconception hints that diagnosis
needs, figures and widgets. Nothing here imports from the other rooms, and nothing here
holds a solution or a hidden test.
"""
