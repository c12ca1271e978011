"""JupyterHub for a class taking the mcp_lab course: every student gets a JupyterLab with mcp_lab's extension.

A trial on one machine, as it stands (README, "Teaching a class"):

    pip install mcp-lab jupyterhub        # in the environment the students' servers run from
    npm ci --prefix class                 # configurable-http-proxy, the hub's proxy
    jupyterhub -f class/jupyterhub_config.py

The test suite runs this file unchanged (tests/classroom/test_hub.py loads it and only moves its ports,
database and homes into a temporary directory). Before a real class, replace the two TRIAL choices below.

Isolation, by spawner. Whatever the spawner, every `%mcp_server --http` binds 127.0.0.1 and requires its
own bearer secret (and refuses browser pages' requests, which carry an Origin header, unless allowed).
- SimpleLocalProcessSpawner (TRIAL): every student's server is a process of the hub's own OS user. No
  isolation at all: one student's kernel can read another's files and process memory. For a trial only.
- LocalProcessSpawner (students are OS users, e.g. with PAM): files and processes are separated by the OS,
  but all students share ONE loopback interface: any student's process can reach any port on 127.0.0.1.
  The per-server secret is then what keeps one student's kernel servers from another's.
- Container spawners (dockerspawner, kubespawner): each server in its own container with its own network
  namespace, so its loopback is its own; the secret remains as a second wall.
"""

import os
import shutil
import sys
from pathlib import Path

c = get_config()  # noqa: F821 - JupyterHub's config loader defines it

HERE = Path(__file__).resolve().parent
COURSE = Path(os.environ.get("MCP_LAB_COURSE", HERE.parent / "notebooks"))
"""The notebooks a student finds in a new home: the tutorials, or an nbgrader release directory."""
HOMES = Path(os.environ.get("MCP_LAB_CLASS_HOMES", "/tmp/mcp-lab-class"))

# The hub and its proxy listen on loopback; put your TLS-terminating reverse proxy in front of port 8000
# (or set bind_url to https://... with ssl_cert / ssl_key) to open it to students.
c.JupyterHub.bind_url = "http://127.0.0.1:8000"
c.JupyterHub.hub_ip = "127.0.0.1"
c.ConfigurableHTTPProxy.command = [str(HERE / "node_modules" / ".bin" / "configurable-http-proxy")]

# TRIAL: anybody may log in under any name. For a class use your institution's authenticator
# (oauthenticator, ltiauthenticator for an LMS, or "pam" with LocalProcessSpawner for OS users).
c.JupyterHub.authenticator_class = "dummy"

# TRIAL: no isolation between students (see above). For a class: "localprocess" (students are OS users)
# or a container spawner, e.g. "docker" with an image that has `pip install mcp-lab` done.
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = str(HOMES / "{username}")

# Each student's server: JupyterLab (mcp_lab's extension is installed with the package), on loopback, from
# the same Python as the hub, opening on the first tutorial.
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
c.Spawner.ip = "127.0.0.1"
c.Spawner.default_url = "/lab/tree/01_first_round_trip.ipynb"
if os.getuid() == 0:  # containers and CI often run as root; jupyter_server refuses root without this
    c.Spawner.args = ["--allow-root"]
# A tutorial starts servers, kernels and live forms; give a slow first start room.
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 60


def give_course(spawner):
    """A new home gets the course's notebooks; a student's own copies are never overwritten."""
    home = Path(spawner.home_dir) if hasattr(spawner, "home_dir") else None
    if home is None:
        return  # other spawners bring the course in their image or volume
    home.mkdir(parents=True, exist_ok=True)
    for notebook in sorted(COURSE.glob("[0-9][0-9]_*.ipynb")):
        if not (home / notebook.name).exists():
            shutil.copyfile(notebook, home / notebook.name)


c.Spawner.pre_spawn_hook = give_course
