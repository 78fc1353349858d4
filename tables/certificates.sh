#!/usr/bin/env bash
# Builds and checks the certificate of every board in the results table of docs/solver.md.
#
#   tables/certificates.sh [BOARD...]         # default: every board of the table
#
# FANORONA: the fanorona binary (default: target/release/fanorona, else target/debug/fanorona).
# OUT: where the certificates go (default: certificates/). MAX_MEMORY (default 6G) and
# MAX_TIME (seconds, default 3600) bound each solve. Prints one line per board: value,
# positions, bytes, seconds to build and to check. Stops at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
FANORONA=${FANORONA:-}
if [[ -z $FANORONA ]]; then
    if [[ -x target/release/fanorona ]]; then FANORONA=target/release/fanorona; else FANORONA=target/debug/fanorona; fi
fi
OUT=${OUT:-certificates}
MAX_MEMORY=${MAX_MEMORY:-6G}
MAX_TIME=${MAX_TIME:-3600}
boards=("$@")
if [[ ${#boards[@]} -eq 0 ]]; then
    boards=(3x3 3x5 5x3 7x3 3x7 5x5 3x9 7x5 9x3 5x7)
fi
mkdir -p "$OUT"
printf '%-5s %-5s %12s %12s %10s %10s\n' board value positions bytes build_s check_s
for b in "${boards[@]}"; do
    cert="$OUT/$b.cert"
    t0=$(date +%s.%N)
    # How each board was decided: 9x3 by df-pn (White's win), 5x7 only in part (Black's win
    # disproved: White's closed strategy, `win-or-draw`); the others by the default solve.
    case $b in
        9x3) how=(--prove white --dfpn) ;;
        5x7) how=(--prove black) ;;
        *) how=() ;;
    esac
    "$FANORONA" solve --board "$b" "${how[@]}" --certificate "$cert" --max-memory "$MAX_MEMORY" \
        --max-time "$MAX_TIME" --json > "$OUT/$b.solve.json"
    t1=$(date +%s.%N)
    "$FANORONA" verify-proof "$cert" --json > "$OUT/$b.verify.json"
    t2=$(date +%s.%N)
    value=$(sed -n 's/.*"value":"\([a-z]*\)".*/\1/p' "$OUT/$b.verify.json")
    positions=$(sed -n 's/.*"positions":\([0-9]*\).*/\1/p' "$OUT/$b.verify.json")
    printf '%-5s %-5s %12s %12s %10.1f %10.1f\n' "$b" "$value" "$positions" \
        "$(wc -c < "$cert")" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
done
