package vectorstore

// CheckByWalk is Filter.Check the long way, by a walk of the whole
// filter, against which the constructors' summary is tested.
func CheckByWalk(f Filter) error { return f.Where.check() }
