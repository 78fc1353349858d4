#!/usr/bin/env bash
# Builds and checks the certificate of every board in the results table of docs/solver.md.
#
#   tables/certificates.sh [BOARD...]         # default: every board of the table
#
# FANORONA: the fanorona binary (default: target/release/fanorona, else target/debug/fanorona).
# OUT: where the certificates go (default: certificates/). MAX_MEMORY (default 6G) and
# MAX_TIME (seconds, default 3600) bound each solve. Prints one line per board: value,
# positions, bytes, seconds to build and to check. Stops at the first failure. The committed
# 5x7 certificate is this script's 5x7.cert compressed with `zstd -19` (tables/certificates/5x7.cert.zst).
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
    # How each board was decided: 9x3 by df-pn (White's win); 5x7 in two halves joined into
    # the draw (Black's win disproved by proof-number search: White's closed strategy; White's
    # disproved by df-pn with the 5x7 endgame tables up to 7 stones, made first into TABLES,
    # default t5x7/, 1.1 GiB: Black's); the others by the default solve.
    case $b in
        9x3) how=(--prove white --dfpn) ;;
        *) how=() ;;
    esac
    if [[ $b == 5x7 ]]; then
        TABLES=${TABLES:-t5x7}
        "$FANORONA" solve --tables "$TABLES" --board 5x7 --max-stones 7 > "$OUT/5x7.tables.log"
        "$FANORONA" solve --board 5x7 --prove black --certificate "$OUT/5x7-black.cert" \
            --max-memory "$MAX_MEMORY" --max-time "$MAX_TIME" --json > "$OUT/5x7-black.solve.json"
        "$FANORONA" solve --board 5x7 --prove white --dfpn --use-tables "$TABLES" \
            --certificate "$OUT/5x7-white.cert" --max-memory "$MAX_MEMORY" --max-time "$MAX_TIME" \
            --json > "$OUT/$b.solve.json"
        "$FANORONA" verify-proof "$OUT/5x7-black.cert" --join "$OUT/5x7-white.cert" --out "$cert" \
            > /dev/null
    else
        "$FANORONA" solve --board "$b" "${how[@]}" --certificate "$cert" --max-memory "$MAX_MEMORY" \
            --max-time "$MAX_TIME" --json > "$OUT/$b.solve.json"
    fi
    t1=$(date +%s.%N)
    "$FANORONA" verify-proof "$cert" --json > "$OUT/$b.verify.json"
    t2=$(date +%s.%N)
    value=$(sed -n 's/.*"value":"\([a-z]*\)".*/\1/p' "$OUT/$b.verify.json")
    positions=$(sed -n 's/.*"positions":\([0-9]*\).*/\1/p' "$OUT/$b.verify.json")
    printf '%-5s %-5s %12s %12s %10.1f %10.1f\n' "$b" "$value" "$positions" \
        "$(wc -c < "$cert")" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
done
