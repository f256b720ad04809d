# timetable.awk - reads a tablix2 problem or result file (tests/e2e/test_tablix2.sh).
# Prints one line per lesson, "NAME|TEACHER|CLASS" (an event of repeats="N"
# counts N times), then "placed P clashes C": P lessons have both a room and
# a time; C counts the lessons beyond the first that share a time with
# another lesson in the same room (timeplace), of the same teacher or of the
# same class (sametime).  A result that solves the problem lists the
# problem's lessons, all placed, with 0 clashes.  One record per tag.
BEGIN { RS = ">" }
function attr(name,    s) {
	if (!match($0, " " name "=\"[^\"]*\""))
		return ""
	return substr($0, RSTART + length(name) + 3, RLENGTH - length(name) - 4)
}
/<event[ \t\n]/ {
	inev = 1
	ename = attr("name")
	reps = attr("repeats")
	if (reps == "")
		reps = 1
	teacher = class = room = time = ""
}
inev && /<resource[ \t\n]/ {
	type = attr("type")
	if (type == "teacher")
		teacher = attr("name")
	else if (type == "class")
		class = attr("name")
	else if (type == "room")
		room = attr("name")
	else if (type == "time")
		time = attr("name")
}
inev && /<\/event[ \t\n]*$/ {
	for (i = 0; i < reps; i++)
		print ename "|" teacher "|" class
	if (room != "" && time != "") {
		placed += reps
		clashes += (used["room", time, room]++ > 0) + (used["teacher", time, teacher]++ > 0) + \
			(used["class", time, class]++ > 0)
	}
	inev = 0
}
END { print "placed " placed + 0 " clashes " clashes + 0 }
