#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a generated PyTorch script says, as Python itself reads it (tst_pytorch_script).

Usage: script_constants.py SCRIPT

Parses SCRIPT with ast (nothing of it runs) and prints one JSON object: "docstring", the
module's docstring, and "constants", every module-level NAME = "string" assignment. Printed
with ensure_ascii, so any code point (a lone surrogate too) reaches the reader as an escape.
A script that does not parse exits 1 with Python's SyntaxError.
"""
import ast
import json
import sys


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        tree = ast.parse(f.read(), sys.argv[1])
    constants = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    constants[target.id] = node.value.value
    print(json.dumps({"docstring": ast.get_docstring(tree, clean=False), "constants": constants}))


if __name__ == "__main__":
    main()
