"""nbgrader settings for the mcp_lab course (issue 17): one assignment per tutorial, one point per exercise.

`python notebooks/build.py --course DIR` writes DIR/source/NN_name/NN_name.ipynb (each tutorial with its
reference solution) and copies this file to DIR; there, `nbgrader generate_assignment NN_name` writes the
student version to DIR/release/. The tutorials already carry nbgrader's cell metadata (answer cells are
solution cells, each check an autograded test cell worth one point, locked), so nothing is marked by hand.
"""

c = get_config()  # noqa: F821 - nbgrader's config loader defines it

c.CourseDirectory.course_id = "mcp-lab"

# An answer cell keeps only what stands outside `### BEGIN SOLUTION` / `### END SOLUTION`: the comment
# that says what to write. nbgrader's default stub (`raise NotImplementedError()`) would make the check's
# own one-line message ("not done yet: define `mine` ...") unreachable, so the solution becomes nothing.
c.ClearSolutions.begin_solution_delimeter = "### BEGIN SOLUTION"
c.ClearSolutions.end_solution_delimeter = "### END SOLUTION"
c.ClearSolutions.code_stub = {"python": ""}

# The released notebooks keep the real outputs of the reference run, like the tutorials in the repository:
# a student reads what each cell printed before running it. The exercise cells have none (build.py emptied
# them), so nothing of the solution shows. Autograding re-executes every cell, so its outputs are fresh.
c.ClearOutput.enabled = False

# The tutorials start real servers and wait on real round trips: nbgrader's 30 s per cell is too short on a
# busy machine. Forms: set MCP_LAB_UNATTENDED=1 in the environment of `nbgrader autograde` (the kernel
# inherits it), so the tutorials' `mcp_lab.forms.unattended(...)` cells answer them; nobody else will.
c.Execute.timeout = 120
