package diag

// FaultInfo is a fault a verification can name (Verification.Fault and
// TraceStep.Fault) and what it means, in words for a finding's reader.
type FaultInfo struct {
	Name  string // as JSON and SARIF carry it, e.g. "HOST_UAF"
	Means string // one short clause, lower case, no trailing period
}

// Faults returns every fault name the simulated device and the semantic
// core give, with its meaning, in the order docs/verification.md lists
// them. The slice is new on each call.
func Faults() []FaultInfo {
	return []FaultInfo{
		{"DEV_UAF_REUSED", "device memory was used after it was freed and reused"},
		{"DEV_UAF_FREED", "queued device work used memory after it was freed"},
		{"HOST_UAF", "host memory was used after it was freed or went out of scope"},
		{"DOUBLE_FREE", "memory was freed twice"},
		{"DANGLING_RETURN", "a pointer or reference outlives the local or temporary it refers to"},
		{"NULL_DEREF", "a smart pointer was used or returned after std::move left it null"},
		{"LOST_WRITE", "writes went into a copy and never reached the original"},
		{"NO_EFFECT", "a statement drops the only effect of its call, so it changes nothing"},
		{"STALE_READ", "a read may see data that is out of date"},
		{"RACE", "two accesses to the same memory, one a write, are not ordered"},
		{"ALIAS_MUTATION", "memory was changed in place while async work still used it"},
		{"DEADLOCK", "the run cannot finish: threads and streams wait on each other, or device memory ran out"},
	}
}

// FaultMeaning returns what the fault named name means, or "" for a name
// Faults does not list.
func FaultMeaning(name string) string {
	for _, f := range Faults() {
		if f.Name == name {
			return f.Means
		}
	}
	return ""
}
