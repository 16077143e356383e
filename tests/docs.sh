#!/bin/sh
# Every name in the model's tables (tools/names.sh) is documented: ops in
# the README's language table, event kinds, places, reasons and wait
# reasons in docs/trace-format.md. Adding a row without its docs fails here.
set -u
cd "$(dirname "$0")/.."
pass=0
fail=0
need() { # need FILE PATTERN WHAT
	if grep -qF -- "$2" "$1"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $1 does not document $3 (looked for: $2)"
	fi
}
for op in $(sh tools/names.sh ops); do need README.md "\`{\"$op\":" "op $op"; done
for ev in $(sh tools/names.sh events); do need docs/trace-format.md "**\`ev=$ev\`" "event kind $ev"; done
for cs in $(sh tools/names.sh cpustates); do need docs/trace-format.md "\`$cs\`" "CPU state $cs"; done
for pl in $(sh tools/names.sh places); do need docs/trace-format.md "\`$pl\`" "place $pl"; done
for r in $(sh tools/names.sh reasons); do need docs/trace-format.md "\`$r\`" "reason $r"; done
sh tools/names.sh waitreasons | while IFS= read -r wr; do
	[ -n "$wr" ] || continue
	grep -qF -- "\`$wr\`" docs/trace-format.md || echo "FAIL docs/trace-format.md does not document wait reason $wr"
done | { if read -r line; then echo "$line"; cat; exit 1; fi; }
[ $? -eq 0 ] && pass=$((pass + 1)) || fail=$((fail + 1))
sh tools/names.sh rules | while IFS= read -r rule; do
	[ -n "$rule" ] || continue
	grep -qF -- "\`$rule\`" docs/trace-format.md || echo "FAIL docs/trace-format.md does not document rule $rule"
done | { if read -r line; then echo "$line"; cat; exit 1; fi; }
[ $? -eq 0 ] && pass=$((pass + 1)) || fail=$((fail + 1))
echo "docs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
