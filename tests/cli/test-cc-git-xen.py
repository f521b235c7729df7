#!/usr/bin/env python3
"""test-cc-git.py with Xen's fork of get_maintainer.pl as the oracle
(MS_CC_GIT_DIALECT=xen; its docstring says what)."""
import os
import runpy

os.environ["MS_CC_GIT_DIALECT"] = "xen"
runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "test-cc-git.py"), run_name="__main__")
