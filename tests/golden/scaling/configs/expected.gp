# configs.gp - written by vlpost scaling; edit it and run `gnuplot configs.gp` in
# its directory.  Data: configs.dat (tasks, elapsed_s, speedup, efficiency; one
# index per curve).  Base: vienna/2 (2 tasks, 0.002000 s).
base_tasks = 2.0
png_term = ''
do for [t in GPVAL_TERMINALS] {
    if (t eq 'png' && png_term eq '') { png_term = 'png' }
    if (t eq 'pngcairo') { png_term = 'pngcairo' }
}
set terminal svg size 800,900 dynamic
set output 'configs.svg'
reset
set datafile missing '-'
set termoption noenhanced
set multiplot layout 2,1 title 'vlpost scaling, base vienna/2'
set logscale x 2
set xrange [1.6:5]
set xtics (2, 4)
set xlabel 'tasks'
set grid
set key below
set ylabel 'predicted elapsed time (s)'
set yrange [0:*]
set ytics nomirror
set y2label 'speed-up'
set y2range [0:*]
set y2tics
plot 'configs.dat' index 0 using 1:2 with linespoints lc 1 pt 7 title 'vienna: time', \
     'configs.dat' index 0 using 1:3 axes x1y2 with linespoints lc 1 pt 6 dt 2 title 'vienna: speed-up', \
     'configs.dat' index 1 using 1:2 with linespoints lc 2 pt 7 title 'modern: time', \
     'configs.dat' index 1 using 1:3 axes x1y2 with linespoints lc 2 pt 6 dt 2 title 'modern: speed-up', \
     x / base_tasks axes x1y2 with lines lc 'gray' dt 3 title 'ideal speed-up'
unset y2label
unset y2tics
set ytics mirror
set ylabel 'efficiency'
set yrange [0:1.2<*]
plot 'configs.dat' index 0 using 1:4 with linespoints lc 1 pt 7 title 'vienna: efficiency', \
     'configs.dat' index 1 using 1:4 with linespoints lc 2 pt 7 title 'modern: efficiency', \
     1 with lines lc 'gray' dt 3 title 'ideal efficiency'
unset multiplot
set output
if (png_term ne '') {
    set terminal png_term size 800,900
    set output 'configs.png'
reset
set datafile missing '-'
set termoption noenhanced
set multiplot layout 2,1 title 'vlpost scaling, base vienna/2'
set logscale x 2
set xrange [1.6:5]
set xtics (2, 4)
set xlabel 'tasks'
set grid
set key below
set ylabel 'predicted elapsed time (s)'
set yrange [0:*]
set ytics nomirror
set y2label 'speed-up'
set y2range [0:*]
set y2tics
plot 'configs.dat' index 0 using 1:2 with linespoints lc 1 pt 7 title 'vienna: time', \
     'configs.dat' index 0 using 1:3 axes x1y2 with linespoints lc 1 pt 6 dt 2 title 'vienna: speed-up', \
     'configs.dat' index 1 using 1:2 with linespoints lc 2 pt 7 title 'modern: time', \
     'configs.dat' index 1 using 1:3 axes x1y2 with linespoints lc 2 pt 6 dt 2 title 'modern: speed-up', \
     x / base_tasks axes x1y2 with lines lc 'gray' dt 3 title 'ideal speed-up'
unset y2label
unset y2tics
set ytics mirror
set ylabel 'efficiency'
set yrange [0:1.2<*]
plot 'configs.dat' index 0 using 1:4 with linespoints lc 1 pt 7 title 'vienna: efficiency', \
     'configs.dat' index 1 using 1:4 with linespoints lc 2 pt 7 title 'modern: efficiency', \
     1 with lines lc 'gray' dt 3 title 'ideal efficiency'
unset multiplot
    set output
}
