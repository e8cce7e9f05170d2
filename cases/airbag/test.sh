#!/usr/bin/env bash
# The airbag case end to end: DFS and BFS, with and without AC2(2), against
# cases/airbag/expected (the paper's five causes).
exec bash "$(dirname "$0")/../test-case.sh" airbag -m100000
