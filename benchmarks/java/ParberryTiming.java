// Times JGraphT 1.5.1's ParberryKnightTour (jgrapht-demo) for ktsolve's divide-and-conquer benchmark.
//
// In package org.jgrapht.demo because the tour class it returns (KnightTour) is package-private.
// Usage: java -cp jgrapht-core.jar:jgrapht-demo.jar:. org.jgrapht.demo.ParberryTiming ROWS COLS RUNS [check]
// Prints one line per run: "run <k> <seconds to getTour> <seconds to list the squares> <squares>";
// run 0 is the first (cold) run.  With "check", the last tour is checked: every square once,
// knight's moves only, closing move back to the start; prints "valid" or "invalid <reason>".
package org.jgrapht.demo;

import java.util.List;
import org.jgrapht.alg.util.Pair;

public class ParberryTiming
{
    public static void main(String[] args)
    {
        int rows = Integer.parseInt(args[0]);
        int cols = Integer.parseInt(args[1]);
        int runs = Integer.parseInt(args[2]);
        boolean check = args.length > 3 && args[3].equals("check");
        List<Pair<Integer, Integer>> last = null;
        for (int k = 0; k < runs; k++) {
            long t0 = System.nanoTime();
            KnightTour tour = new ParberryKnightTour(rows, cols).getTour();
            long t1 = System.nanoTime();
            List<Pair<Integer, Integer>> squares = tour.toList();
            long t2 = System.nanoTime();
            System.out.println("run " + k + " " + ((t1 - t0) / 1e9) + " " + ((t2 - t1) / 1e9) + " " + squares.size());
            last = squares;
        }
        if (check && last != null) {
            System.out.println(verdict(last, rows, cols));
        }
    }

    private static String verdict(List<Pair<Integer, Integer>> sq, int rows, int cols)
    {
        int n = sq.size();
        if (n != rows * cols) {
            return "invalid " + n + " squares for " + rows + "x" + cols;
        }
        boolean[] seen = new boolean[n];
        for (int i = 0; i < n; i++) {
            int a = sq.get(i).getFirst(), b = sq.get(i).getSecond();
            // JGraphT may list (x, y) with either axis first; accept both orientations of the board.
            int idx = a < rows && b < cols ? a * cols + b : b * cols + a;
            if (idx < 0 || idx >= n || seen[idx]) {
                return "invalid square repeated or off the board at step " + i;
            }
            seen[idx] = true;
            Pair<Integer, Integer> p = sq.get((i + 1) % n);
            int dr = Math.abs(p.getFirst() - a), dc = Math.abs(p.getSecond() - b);
            if (!((dr == 1 && dc == 2) || (dr == 2 && dc == 1))) {
                return "invalid move at step " + (i + 1);
            }
        }
        return "valid";
    }
}
