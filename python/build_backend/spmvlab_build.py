"""SpMV Lab's PEP 517 build backend: `pip install .` over the project's own CMake build.

pyproject.toml at the repository root names this module (build-backend = "spmvlab_build",
backend-path = ["python/build_backend"]). It needs nothing from a package index: only the Python
standard library, CMake (>= 3.24), a C++20 compiler, pybind11 and the Python headers, all Debian
12 packages (docs/install.md). Why not scikit-build-core is in docs/python.md ("pip install").

What build_wheel does:
  1. configures the repository's CMakeLists.txt for the interpreter that runs pip
     (-DPython3_EXECUTABLE=sys.executable): CPU-only by default (SPMV_ENABLE_CUDA=OFF), no MPI,
     no GUI, no tests, no tutorials, and SPMV_PYTHON_WHEEL=ON (python/CMakeLists.txt: the build
     fails instead of skipping the module when pybind11 or the headers are missing);
  2. builds the one target the package needs, _spmvlab (with spmv::core and spmv::kernels);
  3. `cmake --install --component python` into a staging directory: the spmvlab package with
     its sample matrices and JSON schemas as package data;
  4. zips it as a wheel with a .dist-info (METADATA from pyproject.toml's [project], WHEEL with
     the interpreter's tag, RECORD with sha256 hashes).

Settings, as --config-settings KEY=VALUE (pip >= 23.1) or environment variables:
  cuda       SPMVLAB_CUDA        off (default) | on (CMake fails without nvcc) | auto
  build-dir  SPMVLAB_BUILD_DIR   a persistent CMake build directory (default: a temporary one,
                                 deleted afterwards); reusing one makes rebuilds incremental
  cmake-args SPMVLAB_CMAKE_ARGS  extra arguments for the configure step (shell words)
  jobs       CMAKE_BUILD_PARALLEL_LEVEL  parallel compile jobs (default: all cores)

The version is the one in the top-level CMakeLists.txt `project(spmvlab VERSION x.y.z ...)`,
the project's single source of truth (spmvlab.__version__ comes from the same line).

The same module also writes the .dist-info of a plain `cmake --install` (python/CMakeLists.txt
runs `python spmvlab_build.py dist-info SITE_DIR`), so importlib.metadata finds spmvlab there too.
"""
import base64
import csv
import hashlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import zipfile

NAME = "spmvlab"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# What a CPU-only wheel does not build. SPMV_ENABLE_CUDA is set from the `cuda` setting.
CMAKE_OPTIONS = [
    "-DCMAKE_BUILD_TYPE=Release",
    "-DSPMV_ENABLE_MPI=OFF",
    "-DSPMV_BUILD_GUI=OFF",
    "-DSPMV_BUILD_TESTS=OFF",
    "-DSPMV_BUILD_TUTORIALS=OFF",
    "-DSPMV_BUILD_PYTHON=ON",
    "-DSPMV_PYTHON_WHEEL=ON",
]


class BuildError(RuntimeError):
    pass


def _say(msg):
    print("spmvlab build: " + msg, file=sys.stderr, flush=True)


# ---- metadata ------------------------------------------------------------------------------

def project_version(root=ROOT):
    """x.y.z from `project(spmvlab VERSION x.y.z` in the top-level CMakeLists.txt."""
    with open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(\s*spmvlab\s+VERSION\s+([0-9][0-9A-Za-z.]*)", f.read())
    if not m:
        raise BuildError("no `project(spmvlab VERSION x.y.z` in %s/CMakeLists.txt" % root)
    return m.group(1)


def _load_toml(path):
    try:
        import tomllib  # Python >= 3.11
    except ImportError:  # pragma: no cover - older interpreters
        try:
            import tomli as tomllib
        except ImportError:
            raise BuildError("reading pyproject.toml needs Python >= 3.11 (tomllib) or the "
                             "tomli package") from None
    with open(path, "rb") as f:
        return tomllib.load(f)


def metadata_text(root=ROOT):
    """Core metadata 2.1 (METADATA) from pyproject.toml's [project] and the CMake version."""
    project = _load_toml(os.path.join(root, "pyproject.toml"))["project"]
    if project.get("name") != NAME:
        raise BuildError("pyproject.toml names %r, this backend builds %r"
                         % (project.get("name"), NAME))
    lines = ["Metadata-Version: 2.1", "Name: " + NAME, "Version: " + project_version(root)]
    if "description" in project:
        lines.append("Summary: " + project["description"])
    for key, label in (("Homepage", "Home-page"),):
        url = project.get("urls", {}).get(key)
        if url:
            lines.append("%s: %s" % (label, url))
    for label, url in project.get("urls", {}).items():
        lines.append("Project-URL: %s, %s" % (label, url))
    lic = project.get("license", {})
    if "text" in lic:
        lines.append("License: " + lic["text"])
    if project.get("keywords"):
        lines.append("Keywords: " + ",".join(project["keywords"]))
    for c in project.get("classifiers", []):
        lines.append("Classifier: " + c)
    if "requires-python" in project:
        lines.append("Requires-Python: " + project["requires-python"])
    for d in project.get("dependencies", []):
        lines.append("Requires-Dist: " + d)
    for extra, deps in project.get("optional-dependencies", {}).items():
        lines.append("Provides-Extra: " + extra)
        for d in deps:
            marker = 'extra == "%s"' % extra
            lines.append("Requires-Dist: %s; %s" % (d, marker) if ";" not in d
                         else "Requires-Dist: %s and %s" % (d, marker))
    body = ""
    readme = project.get("readme")
    if isinstance(readme, str):
        lines.append("Description-Content-Type: " +
                     ("text/markdown" if readme.endswith(".md") else "text/plain"))
        with open(os.path.join(root, readme), encoding="utf-8") as f:
            body = f.read()
    return "\n".join(lines) + "\n\n" + body


def wheel_tag():
    """cp311-cp311-linux_x86_64 for the interpreter running this (the extension is built for
    it, so the wheel fits exactly that interpreter and ABI)."""
    impl = {"cpython": "cp", "pypy": "pp"}.get(sys.implementation.name, "py")
    py = "%s%d%d" % (impl, sys.version_info[0], sys.version_info[1])
    soabi = sysconfig.get_config_var("SOABI") or ""
    m = re.match(r"cpython-(\d+)([a-z]*)", soabi)
    abi = "cp" + m.group(1) + m.group(2) if m else py
    plat = re.sub(r"[^A-Za-z0-9]", "_", sysconfig.get_platform())
    return "%s-%s-%s" % (py, abi, plat)


def _dist_info_name(root):
    return "%s-%s.dist-info" % (NAME, project_version(root))


def _wheel_file(tag):
    return ("Wheel-Version: 1.0\nGenerator: spmvlab_build (python/build_backend)\n"
            "Root-Is-Purelib: false\nTag: %s\n" % tag)


def _record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode("ascii")


def write_dist_info(site_dir, root=ROOT, installer=None):
    """Writes <site_dir>/spmvlab-VERSION.dist-info for the spmvlab package already in site_dir
    (METADATA, WHEEL, INSTALLER, RECORD with the hashes of every installed file)."""
    pkg = os.path.join(site_dir, NAME)
    if not os.path.isfile(os.path.join(pkg, "__init__.py")):
        raise BuildError("no spmvlab package in %s" % site_dir)
    for old in os.listdir(site_dir):  # an earlier version's dist-info would shadow this one
        if old.startswith(NAME + "-") and old.endswith(".dist-info"):
            shutil.rmtree(os.path.join(site_dir, old))
    info = os.path.join(site_dir, _dist_info_name(root))
    os.makedirs(info)
    files = {"METADATA": metadata_text(root), "WHEEL": _wheel_file(wheel_tag())}
    if installer:
        files["INSTALLER"] = installer + "\n"
    for name, text in files.items():
        with open(os.path.join(info, name), "w", encoding="utf-8") as f:
            f.write(text)
    shutil.copy(os.path.join(root, "LICENSE"), os.path.join(info, "LICENSE"))
    rows = []
    for top in (pkg, info):
        for d, dirs, names in os.walk(top):
            dirs.sort()
            for n in sorted(names):
                p = os.path.join(d, n)
                with open(p, "rb") as f:
                    data = f.read()
                rows.append([os.path.relpath(p, site_dir).replace(os.sep, "/"),
                             _record_hash(data), str(len(data))])
    rel_record = os.path.basename(info) + "/RECORD"
    rows.append([rel_record, "", ""])
    with open(os.path.join(info, "RECORD"), "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)
    return info


# ---- the CMake build -----------------------------------------------------------------------

def _setting(config_settings, key, env, default=None):
    cs = config_settings or {}
    for k in (key, "--" + key):
        if k in cs:
            v = cs[k]
            return v[-1] if isinstance(v, list) else v
    return os.environ.get(env, default)


def _cuda_define(value):
    v = (value or "off").strip().lower()
    if v in ("0", "off", "no", "false", ""):
        return "-DSPMV_ENABLE_CUDA=OFF", False
    if v in ("1", "on", "yes", "true"):
        return "-DSPMV_ENABLE_CUDA=ON", True
    if v == "auto":
        return "-DSPMV_ENABLE_CUDA=ON", False
    raise BuildError("cuda must be on, off or auto, not %r" % value)


def _run(cmd, cwd=None):
    _say("$ " + " ".join(shlex.quote(c) for c in cmd))
    r = subprocess.run(cmd, cwd=cwd)
    if r.returncode != 0:
        raise BuildError("command failed (exit %d): %s" % (r.returncode, " ".join(cmd)))


def _working_tool(name):
    """The first `name` (cmake, ninja) that runs: on PATH, then the system's own. A tool that is
    found but does not run (pip's cmake or ninja console script, whose Python package pip's
    isolated build environment hides) is skipped. None when none runs."""
    seen = set()
    for candidate in (shutil.which(name), "/usr/bin/" + name, "/usr/local/bin/" + name):
        if not candidate or candidate in seen or not os.access(candidate, os.X_OK):
            continue
        seen.add(candidate)
        try:
            r = subprocess.run([candidate, "--version"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=60)
        except (OSError, subprocess.SubprocessError):
            continue
        if r.returncode == 0:
            return candidate
    return None


def _build_package(stage, config_settings):
    """Configures, builds and stages the spmvlab package into `stage`; returns nothing."""
    cmake = _working_tool("cmake")
    if not cmake:
        raise BuildError("no working cmake: none on PATH runs, nor /usr/bin/cmake or "
                         "/usr/local/bin/cmake (Debian: apt install cmake; 3.25 or newer). A "
                         "cmake installed by pip into another environment does not run inside "
                         "pip's isolated build: add --no-build-isolation, or let pip install "
                         "one (get_requires_for_build_wheel asks for it when online)")
    cuda_define, cuda_required = _cuda_define(_setting(config_settings, "cuda", "SPMVLAB_CUDA"))
    build_dir = _setting(config_settings, "build-dir", "SPMVLAB_BUILD_DIR")
    extra = shlex.split(_setting(config_settings, "cmake-args", "SPMVLAB_CMAKE_ARGS", "") or "")
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
    tmp = None
    if not build_dir:
        tmp = tempfile.mkdtemp(prefix="spmvlab-build-")
        build_dir = tmp
    build_dir = os.path.abspath(build_dir)
    try:
        cfg = [cmake, "-S", ROOT, "-B", build_dir]
        ninja = _working_tool("ninja")
        if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")) and ninja:
            cfg += ["-G", "Ninja", "-DCMAKE_MAKE_PROGRAM=" + ninja]
        cfg += CMAKE_OPTIONS + [cuda_define, "-DPython3_EXECUTABLE=" + sys.executable,
                                "-DSPMV_PYTHON_INSTALL_DIR=."] + extra
        _say("building the C++ core and the module for %s in %s (CUDA %s); this compiles the "
             "library from scratch the first time: minutes (pip -v shows the compiler)"
             % (sys.executable, build_dir, cuda_define.split("=")[1]))
        start = time.monotonic()
        _run(cfg)
        if cuda_required:
            with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8") as f:
                if not re.search(r"^CMAKE_CUDA_COMPILER:\w+=.*nvcc", f.read(), re.M):
                    raise BuildError("cuda=on but CMake found no CUDA compiler (nvcc); install "
                                     "the CUDA toolkit or build with cuda=off")
        _run([cmake, "--build", build_dir, "--target", "_spmvlab", "-j", jobs])
        _run([cmake, "--install", build_dir, "--component", "python", "--prefix", stage,
              "--strip"])
        _say("built in %.0f s" % (time.monotonic() - start))
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    if not os.path.isfile(os.path.join(stage, NAME, "__init__.py")):
        raise BuildError("the CMake install put no spmvlab package into %s" % stage)


# ---- PEP 517 hooks -------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    # Nothing, so that an offline `pip install .` downloads nothing; only a machine without a
    # working cmake asks pip for PyPI's (which then needs the network).
    return [] if _working_tool("cmake") else ["cmake>=3.25"]


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = os.path.join(metadata_directory, _dist_info_name(ROOT))
    os.makedirs(info, exist_ok=True)
    with open(os.path.join(info, "METADATA"), "w", encoding="utf-8") as f:
        f.write(metadata_text(ROOT))
    with open(os.path.join(info, "WHEEL"), "w", encoding="utf-8") as f:
        f.write(_wheel_file(wheel_tag()))
    return os.path.basename(info)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version = project_version(ROOT)
    tag = wheel_tag()
    with tempfile.TemporaryDirectory(prefix="spmvlab-wheel-") as stage:
        _build_package(stage, config_settings)
        for leftover in os.listdir(stage):  # only the package goes into the wheel
            if leftover != NAME:
                p = os.path.join(stage, leftover)
                shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
        info = write_dist_info(stage, ROOT)
        name = "%s-%s-%s.whl" % (NAME, version, tag)
        _zip_wheel(stage, os.path.basename(info), os.path.join(wheel_directory, name))
    _say("wrote %s" % name)
    return name


def _zip_wheel(stage, info_name, path):
    record = info_name + "/RECORD"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        entries = []
        for d, dirs, names in os.walk(stage):
            dirs.sort()
            for n in sorted(names):
                p = os.path.join(d, n)
                entries.append((os.path.relpath(p, stage).replace(os.sep, "/"), p))
        # the package first, the dist-info last, RECORD at the very end (PEP 427)
        entries.sort(key=lambda e: (e[0].startswith(info_name), e[0] == record, e[0]))
        for arc, p in entries:
            zi = zipfile.ZipInfo(arc, date_time=(1980, 1, 1, 0, 0, 0))
            mode = os.stat(p).st_mode & 0o777
            zi.external_attr = (0o100000 | mode) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            with open(p, "rb") as f:
                z.writestr(zi, f.read())


def build_sdist(sdist_directory, config_settings=None):
    """The source files (in a git checkout: tracked or not ignored, as `git ls-files --cached
    --others --exclude-standard` lists them; else everything but build outputs) as
    spmvlab-VERSION.tar.gz with a PKG-INFO."""
    version = project_version(ROOT)
    base = "%s-%s" % (NAME, version)
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], check=True, capture_output=True).stdout
        out = out.decode()
        files = [f for f in out.split("\0") if f and os.path.isfile(os.path.join(ROOT, f))]
    except (OSError, subprocess.CalledProcessError):
        skip = re.compile(r"^(build[^/]*|out|\.git|\.deps|\.mtx|\.bench)(/|$)|__pycache__")
        files = []
        for d, dirs, names in os.walk(ROOT):
            for n in names:
                rel = os.path.relpath(os.path.join(d, n), ROOT).replace(os.sep, "/")
                if not skip.search(rel):
                    files.append(rel)
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as t:
        for rel in sorted(files):
            t.add(os.path.join(ROOT, rel), arcname=base + "/" + rel, recursive=False)
        pkg_info = metadata_text(ROOT).encode("utf-8")
        ti = tarfile.TarInfo(base + "/PKG-INFO")
        ti.size = len(pkg_info)
        t.addfile(ti, io.BytesIO(pkg_info))
    return name


# ---- command line (used by python/CMakeLists.txt's install step) ----------------------------

def main(argv):
    usage = ("usage: spmvlab_build.py dist-info SITE_DIR [--installer NAME]\n"
             "       spmvlab_build.py version")
    if argv[:1] == ["version"]:
        print(project_version(ROOT))
        return 0
    if len(argv) >= 2 and argv[0] == "dist-info":
        installer = argv[3] if len(argv) == 4 and argv[2] == "--installer" else None
        if len(argv) not in (2, 4) or (len(argv) == 4 and not installer):
            print(usage, file=sys.stderr)
            return 2
        print(write_dist_info(argv[1], ROOT, installer))
        return 0
    print(usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BuildError as e:
        print("spmvlab_build: error: %s" % e, file=sys.stderr)
        sys.exit(1)
