package segment

// langSpec is the hand-written description of a language's rules: word
// lists separated by white space, lower case, abbreviations without their
// final period.
type langSpec struct {
	code                                 string
	titles, plain, number, inner, final  string
	starters, months                     string
	colon, comma, semi, quotes, ordinals bool
}

// baseAbbrevs are understood in every language but English, which has its
// own list.
var baseAbbrevs = langSpec{
	titles: "dr prof st mr mrs ms",
	plain:  "co inc ltd corp jr sr u.s u.k e.u",
	number: "no nr n° nº tel fig art vol pp",
	inner:  "e.g i.e vs cf",
	final:  "etc",
}

func (s langSpec) build() *language {
	l := &language{code: s.code, abbrevs: map[string]abbrKind{}, starters: wordSet(s.starters),
		colon: s.colon, comma: s.comma, semi: s.semi, quotes: s.quotes, ordinals: s.ordinals}
	if s.months != "" {
		l.months = wordSet(s.months)
	}
	for _, spec := range []langSpec{baseAbbrevs, s} {
		addAbbrevs(l.abbrevs, abbrTitle, spec.titles)
		addAbbrevs(l.abbrevs, abbrPlain, spec.plain)
		addAbbrevs(l.abbrevs, abbrNumber, spec.number)
		addAbbrevs(l.abbrevs, abbrInner, spec.inner)
		addAbbrevs(l.abbrevs, abbrFinal, spec.final)
	}
	l.init()
	return l
}

// languageSpecs are the languages other than English with rules of their
// own. The lists are short: the common titles, units, months and Latin
// abbreviations of each language, written for this package.
var languageSpecs = []langSpec{
	{code: "hi"}, {code: "mr"}, {code: "fa"}, {code: "ur"}, {code: "am"}, {code: "my"}, {code: "ja"}, {code: "zh"},
	{code: "hy", colon: true},
	{code: "ar", colon: true, comma: true},
	{code: "el", semi: true},
	{code: "bg", quotes: true,
		titles:   "г гр пл ул бул проф акад доц д-р ст",
		inner:    "т.е напр вкл",
		final:    "т.н т.г",
		starters: "аз ти той тя то ние вие те това този тази какво кой как къде кога защо"},
	{code: "da",
		titles:   "skt hr fr frk",
		number:   "s kap",
		inner:    "f.eks bl.a dvs jf ca",
		final:    "osv mv",
		plain:    "mht ift vedr tlf kl jan feb mar apr jun jul aug sep sept okt nov dec",
		starters: "jeg du han hun den det de vi der her hvad hvor hvem hvorfor hvordan hvis men og så da nu"},
	{code: "de", ordinals: true,
		titles:   "hr hrn frl",
		number:   "s abs bd kap",
		inner:    "z.b d.h u.a bzw vgl",
		final:    "usw u.ä",
		plain:    "ca evtl ggf inkl jh jhd mio mrd abt allg anm bzgl gegr geb gest hrsg max min mind sog zzgl zt str jan feb febr mär apr jun jul aug sep sept okt nov dez",
		months:   "januar februar märz april mai juni juli august september oktober november dezember jan feb febr mär apr jun jul aug sep sept okt nov dez",
		starters: "ich du er sie es wir ihr der die das ein eine dies diese was wer wie wo warum wann aber und oder doch dann heute"},
	{code: "es",
		titles:   "sr sra srta sres sras srs dra lic lda ing arq profa dña gral cnel tte sto sta fr mons ud uds vd vds mt",
		number:   "núm art párr párrf pág págs cap",
		inner:    "ej p.ej",
		plain:    "admón aprox av avda cía dpto depto ee uu ee.uu hs hrs min seg km kg cm mm ene feb mar abr may jun jul ago sep sept oct nov dic lun mié jue vie sáb dom atte s.a s.l",
		starters: "el la los las un una yo tú él ella nosotros ellos ellas usted este esta esto estos estas ese esa eso qué cuándo dónde cómo quién pero sin además también entonces luego hoy ayer ahora"},
	{code: "fr",
		titles:   "m mm mme mmes mlle mlles pr ste me mgr",
		number:   "p chap",
		inner:    "c.-à-d",
		plain:    "av bd env janv févr avr juil sept oct nov déc",
		starters: "je tu il elle on nous vous ils elles le la les un une ce cette qui que quand où comment pourquoi mais et donc"},
	{code: "it",
		titles:   "sig sig.ra sig.na sigg sigra dott dott.ssa prof.ssa ing avv arch geom rag on mons rev dir amm egr gent spett p.zza v.le c.so",
		number:   "n pag pagg cap",
		inner:    "es cfr",
		final:    "ecc",
		plain:    "psicol meteor idraul econ az gen feb mar apr mag giu lug ago set ott nov dic lun mer gio ven sab dom ca s.p.a s.r.l",
		starters: "il lo la i gli le un uno una io tu lui lei noi voi loro questo questa quello che chi come dove quando perché ma però quindi oggi ieri domani ora"},
	{code: "kk", quotes: true,
		plain:    "жыл млрд млн",
		inner:    "т.б",
		starters: "мен сен ол біз сіз олар бұл не кім қалай қайда қашан неге бірақ"},
	{code: "nl",
		titles:   "dhr mevr drs ir ing",
		inner:    "bijv bv d.w.z o.a m.a.w",
		final:    "enz",
		plain:    "aanw vnw ca resp",
		starters: "ik jij je hij zij ze het wij we jullie de een dit dat wat wie hoe waar wanneer waarom maar en"},
	{code: "pl", ordinals: true,
		titles:   "p mgr inż ks św",
		inner:    "np tzn tj m.in",
		final:    "itd itp",
		plain:    "bałt ul al godz r tys mln mld zł gr",
		months:   "stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października listopada grudnia",
		starters: "ja ty on ona ono my wy oni to ten ta co kto jak gdzie kiedy dlaczego ale"},
	{code: "ru", quotes: true,
		titles:   "г гг гр проф акад доц тов ген полк им св ул пр пл пер д пгт обл пос ст стр просп наб",
		number:   "кв рис табл",
		inner:    "т.е т.к т.н напр см",
		final:    "т.д т.п др",
		plain:    "руб коп тыс млн млрд долл дол мм км кг ч мин сек янв февр мар апр авг сент окт нояб дек куб",
		starters: "я ты он она оно мы вы они это этот эта что кто как где когда почему"},
	{code: "sk", quotes: true, ordinals: true,
		titles:   "p ing mudr judr phdr mgr sv",
		inner:    "napr tzv t.j",
		final:    "atď",
		plain:    "s.r.o a.s spol",
		months:   "januára februára marca apríla mája júna júla augusta septembra októbra novembra decembra január február marec apríl máj jún júl august september október november december",
		starters: "ja ty on ona ono my vy oni to ten táto čo kto ako kde kedy prečo ale"},
}
