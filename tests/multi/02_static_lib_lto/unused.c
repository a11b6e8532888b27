/* Never needed by the program: if the link step pulled this member, `not_defined_anywhere`
 * would be an undefined symbol at the link. */
double not_defined_anywhere(double);
double unused_helper(double x) { return not_defined_anywhere(x) * 2; }
