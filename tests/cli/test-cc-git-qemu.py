#!/usr/bin/env python3
"""test-cc-git.py with QEMU's get_maintainer.pl as the oracle
(MS_CC_GIT_DIALECT=qemu; its docstring says what)."""
import os
import runpy

os.environ["MS_CC_GIT_DIALECT"] = "qemu"
runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "test-cc-git.py"), run_name="__main__")
