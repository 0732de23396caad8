package shell

import (
	"context"
	"strings"
	"testing"
)

// TestRoles checks each word's role on lines where a word looks like a
// path but is a pattern, a filter, a script or data, and on look-alikes
// where the same word is a file.
func TestRoles(t *testing.T) {
	for _, tt := range []struct {
		line string
		want string // the roles, one letter a word: n name, o option, v value, p pattern, c code, d data, s subcommand, x command, f operand
	}{
		{"grep .env README.md", "npf"},
		{"grep -e .env README.md", "nopf"},
		{"grep --regexp=.env README.md", "nof"},
		{"grep -f .env README.md", "noff"},
		{"grep --label .env -H pat x", "novopf"},
		{"grep -iA 3 .env x", "novpf"},
		{"grep -A3 .env x", "nopf"},
		{"grep -r pat -- -x.env", "nopof"},
		{"egrep 'a|b' ~/.ssh/id_rsa", "npf"},
		{"rg --threads 2 .env src", "novpf"},
		{"rg -g '*.env' secret", "nopp"},
		{"rg --files .env", "nof"},
		{"ag .env lib", "npf"},
		{"ack -g .env", "nop"},
		{"find . -name .env -print", "nfopo"},
		{"find /etc -newer .env -exec cat {} ;", "nfofoxx"},
		{"find -L src -regex '.*\\.env' -delete", "nofopo"},
		{"jq .env config.json", "ncf"},
		{"jq -r --indent 2 '.a' x.json", "noovcf"},
		{"jq -f prog.jq x.json", "noff"},
		{"yq .env x.yaml", "ncf"},
		{"sed -n /.env/p notes.txt", "nocf"},
		{"sed -e s/a/b/ -i .env", "nocof"},
		{"awk /id_rsa/ log", "ncf"},
		{"awk -F: -f prog.awk /etc/passwd", "nooff"},
		{"awk -v k=.env '{print}' x", "nodcf"},
		{"echo .env", "nd"},
		{"printf %s ~/.ssh/id_rsa", "ndd"},
		{"true .env", "nd"},
		{": .env", "nd"},
		{"git commit -m .env", "nsod"},
		{"git commit -F .env", "nsof"},
		{"git -C /tmp checkout -f", "novso"},
		{"git --version checkout -f", "nodd"},
		{"git -c core.pager=cat log -S .env", "novsop"},
		{"git grep .env HEAD", "nspf"},
		{"git rm -r --cached .env", "nsoof"},
		{"git check-ignore -v .env", "nsdd"},
		{"git -C app check-attr diff -- .env", "novsddd"},
		{"cat .env", "nf"},
		{"cp -t /tmp .env", "noff"},
	} {
		t.Run(tt.line, func(t *testing.T) {
			cmds, err := Parse(context.Background(), tt.line)
			if err != nil || len(cmds) == 0 {
				t.Fatalf("Parse(%q) = %v, %v", tt.line, cmds, err)
			}
			letters := map[string]string{RoleName: "n", RoleOption: "o", RoleValue: "v", RolePattern: "p", RoleCode: "c",
				RoleData: "d", RoleSubcommand: "s", RoleCommand: "x", RoleOperand: "f"}
			var got strings.Builder
			for _, r := range cmds[0].Roles {
				got.WriteString(letters[r] + map[bool]string{true: "?", false: ""}[letters[r] == ""])
			}
			if got.String() != tt.want {
				t.Errorf("roles of %q = %s %q, want %s", cmds[0].Argv, got.String(), cmds[0].Roles, tt.want)
			}
		})
	}
}

// TestRolesUnknownProgram: a program the module does not know has
// options and operands only, and an empty argv has no roles.
func TestRolesUnknownProgram(t *testing.T) {
	got := Roles([]string{"/usr/local/bin/tool", "--x", "a", "-y", "--", "-z"})
	want := []string{RoleName, RoleOption, RoleOperand, RoleOption, RoleOption, RoleOperand}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("Roles = %q, want %q", got, want)
	}
	if len(Roles(nil)) != 0 {
		t.Errorf("Roles(nil) is not empty")
	}
}
