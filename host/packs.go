package host

// packInfo is a hook pack found by the scan.
type packInfo struct{}

// A PackStatus describes a hook pack.
type PackStatus struct{}

// scanPack looks at a subdirectory of the hooks directory.
func (h *Host) scanPack(sc *scanResult, dir string) {
	sc.notes = append(sc.notes, dir+"/: subdirectory ignored")
}

func (s *snapshot) packProblems() []string { return nil }

func (s *snapshot) packFailures() []string { return nil }

func (sc *scanResult) packStatuses() []PackStatus { return nil }
