"""Validate SARIF logs against a JSON schema: validate_sarif.py SCHEMA LOG...

Prints each violation as 'LOG: path: message' and exits 1 if any; exits 0 when every log is valid.
"""
import json
import sys
from urllib.parse import urlsplit

import jsonschema


def main(argv):
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    checker = jsonschema.FormatChecker()

    @checker.checks("uri")
    def is_absolute_uri(value):
        # RFC 3986 absolute-URI: a scheme, then ':', and no spaces (jsonschema skips "uri" without rfc3987).
        if not isinstance(value, str):
            return True
        parts = urlsplit(value)
        return bool(parts.scheme) and value.startswith(parts.scheme + ":") and " " not in value

    validator = jsonschema.Draft4Validator(schema, format_checker=checker)
    failed = False
    for path in argv[2:]:
        with open(path, encoding="utf-8") as f:
            log = json.load(f)
        for error in sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path)):
            failed = True
            where = "/".join(str(p) for p in error.absolute_path)
            print(f"{path}: {where}: {error.message}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
