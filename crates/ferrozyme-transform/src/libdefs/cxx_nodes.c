/* Definitions of libstdc++'s non-template node functions, which std::list and
 * std::map/std::set call with the nodes that hold the program's (possibly active) data:
 * libstdc++.so has their code, the program's module has not. They only move pointers
 * (links between nodes, colours), never floats; differentiated as the IR below, every
 * link they write is written in the shadow nodes as well, so the shadow container keeps
 * the primal's shape and the derivative code can walk it. Written for Ferrozyme from the
 * data-structure invariants libstdc++ documents (doubly linked circular lists with a
 * sentinel; red-black trees whose header holds root, leftmost and rightmost), not copied
 * from libstdc++.
 *
 * Compiled to cxx_nodes.ll by `bash tools/gen_libdefs.sh "" cxx_nodes`; see libdefs.rs.
 * Only differentiated code calls them (`__fz_lib_<mangled name>`); the program's own
 * calls still go to libstdc++. A tree rebalanced here may differ in shape from one
 * libstdc++ would build, but it is a valid red-black tree with a correct header, which is
 * all libstdc++'s code relies on afterwards. */

typedef struct lnode {
  struct lnode *next, *prev;
} lnode;

/* std::__detail::_List_node_base::_M_hook(position): links this before position. */
void __fz_lib__ZNSt8__detail15_List_node_base7_M_hookEPS0_(lnode *self, lnode *pos) {
  self->next = pos;
  self->prev = pos->prev;
  pos->prev->next = self;
  pos->prev = self;
}

/* _M_unhook(): unlinks this. */
void __fz_lib__ZNSt8__detail15_List_node_base9_M_unhookEv(lnode *self) {
  lnode *n = self->next, *p = self->prev;
  p->next = n;
  n->prev = p;
}

/* _M_reverse(): reverses the circular list whose sentinel is this. */
void __fz_lib__ZNSt8__detail15_List_node_base10_M_reverseEv(lnode *self) {
  lnode *t = self;
  do {
    lnode *n = t->next;
    t->next = t->prev;
    t->prev = n;
    t = n;
  } while (t != self);
}

/* _M_transfer(first, last): moves [first, last) before this (splice). */
void __fz_lib__ZNSt8__detail15_List_node_base11_M_transferEPS0_S1_(lnode *self, lnode *first,
                                                                 lnode *last) {
  if (self == last)
    return;
  lnode *before_last = last->prev, *before_first = first->prev, *before_self = self->prev;
  before_last->next = self;
  before_first->next = last;
  before_self->next = first;
  self->prev = before_last;
  last->prev = before_first;
  first->prev = before_self;
}

/* Points the neighbours of sentinel s's first and last nodes back at s. */
static void relink(lnode *s) {
  s->next->prev = s;
  s->prev->next = s;
}

/* static _List_node_base::swap(x, y): exchanges the contents of two lists (std::list::swap,
 * and std::list::sort's scratch lists). */
void __fz_lib__ZNSt8__detail15_List_node_base4swapERS0_S1_(lnode *x, lnode *y) {
  int xe = x->next == x, ye = y->next == y;
  if (!xe && !ye) {
    lnode *n = x->next, *p = x->prev;
    x->next = y->next;
    x->prev = y->prev;
    y->next = n;
    y->prev = p;
    relink(x);
    relink(y);
  } else if (!xe) {
    y->next = x->next;
    y->prev = x->prev;
    relink(y);
    x->next = x->prev = x;
  } else if (!ye) {
    x->next = y->next;
    x->prev = y->prev;
    relink(x);
    y->next = y->prev = y;
  }
}

enum { RED = 0, BLACK = 1 };
typedef struct tnode {
  int color;
  struct tnode *parent, *left, *right;
} tnode;

/* The link to n's child on side d (0: left, 1: right). The rebalancing below is written
 * once for a side d and its mirror !d instead of twice with left and right swapped. */
static tnode **link(tnode *n, int d) { return d ? &n->right : &n->left; }

/* The last node reached from x by following side d (0: the minimum of x's subtree). */
static tnode *extreme(tnode *x, int d) {
  while (*link(x, d))
    x = *link(x, d);
  return x;
}

static tnode *tree_next(tnode *x) {
  if (x->right)
    return extreme(x->right, 0);
  tnode *y = x->parent;
  while (x == y->right) {
    x = y;
    y = y->parent;
  }
  /* from the rightmost node of a one-node tree, y is the header: stay there */
  return x->right != y ? y : x;
}

static tnode *tree_prev(tnode *x) {
  /* the header (red, its parent's parent is itself) steps back to the rightmost node */
  if (x->color == RED && x->parent->parent == x)
    return x->right;
  if (x->left)
    return extreme(x->left, 1);
  tnode *y = x->parent;
  while (x == y->left) {
    x = y;
    y = y->parent;
  }
  return y;
}

tnode *__fz_lib__ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(tnode *x) { return tree_next(x); }
tnode *__fz_lib__ZSt18_Rb_tree_incrementPKSt18_Rb_tree_node_base(tnode *x) { return tree_next(x); }
tnode *__fz_lib__ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base(tnode *x) { return tree_prev(x); }
tnode *__fz_lib__ZSt18_Rb_tree_decrementPKSt18_Rb_tree_node_base(tnode *x) { return tree_prev(x); }

/* Rotates x down to side d (d = 0: a left rotation): its child on the other side takes
 * its place, and x becomes that child's child on side d. */
static void rotate(tnode *x, int d, tnode **root) {
  tnode *y = *link(x, !d);
  *link(x, !d) = *link(y, d);
  if (*link(y, d))
    (*link(y, d))->parent = x;
  y->parent = x->parent;
  if (x == *root)
    *root = y;
  else
    *link(x->parent, x != x->parent->left) = y;
  *link(y, d) = x;
  x->parent = y;
}

/* _Rb_tree_insert_and_rebalance(insert_left, x, p, header): links the new node x as a
 * child of p (left when insert_left), keeps the header's leftmost (header.left),
 * rightmost (header.right) and root (header.parent) up to date, and restores the
 * red-black properties. The caller counts the node. */
void __fz_lib__ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(
    _Bool insert_left, tnode *x, tnode *p, tnode *header) {
  tnode **root = &header->parent;
  x->parent = p;
  x->left = 0;
  x->right = 0;
  x->color = RED;
  if (insert_left) {
    p->left = x; /* also the leftmost slot when p is the header (empty tree) */
    if (p == header) {
      header->parent = x;
      header->right = x;
    } else if (p == header->left) {
      header->left = x;
    }
  } else {
    p->right = x;
    if (p == header->right)
      header->right = x;
  }
  while (x != *root && x->parent->color == RED) {
    tnode *g = x->parent->parent;
    int d = x->parent != g->left; /* the side of x's parent under g */
    tnode *u = *link(g, !d);
    if (u && u->color == RED) {
      x->parent->color = BLACK;
      u->color = BLACK;
      g->color = RED;
      x = g;
    } else {
      if (x == *link(x->parent, !d)) {
        x = x->parent;
        rotate(x, d, root);
      }
      x->parent->color = BLACK;
      g->color = RED;
      rotate(g, !d, root);
    }
  }
  (*root)->color = BLACK;
}

/* _Rb_tree_rebalance_for_erase(z, header): unlinks z from the tree (keeping the header's
 * root, leftmost and rightmost), restores the red-black properties, and returns the node
 * the caller destroys (z itself). The caller uncounts it. With two children, z's
 * successor y takes z's place and colour in the tree. */
tnode *__fz_lib__ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_(tnode *z,
                                                                           tnode *header) {
  tnode **root = &header->parent;
  tnode *y = z, *x, *xp;
  if (!y->left) {
    x = y->right;
  } else if (!y->right) {
    x = y->left;
  } else {
    y = extreme(y->right, 0);
    x = y->right;
  }
  if (y != z) {
    /* y (z's successor, no left child) replaces z */
    z->left->parent = y;
    y->left = z->left;
    if (y != z->right) {
      xp = y->parent;
      if (x)
        x->parent = y->parent;
      y->parent->left = x;
      y->right = z->right;
      z->right->parent = y;
    } else {
      xp = y;
    }
    if (*root == z)
      *root = y;
    else if (z->parent->left == z)
      z->parent->left = y;
    else
      z->parent->right = y;
    y->parent = z->parent;
    int c = y->color;
    y->color = z->color;
    z->color = c;
    y = z; /* the colour removed from the tree is now z's */
  } else {
    xp = y->parent;
    if (x)
      x->parent = y->parent;
    if (*root == z)
      *root = x;
    else if (z->parent->left == z)
      z->parent->left = x;
    else
      z->parent->right = x;
    if (header->left == z) /* z had no left child */
      header->left = z->right ? extreme(x, 0) : z->parent;
    if (header->right == z) /* z had no right child */
      header->right = z->left ? extreme(x, 1) : z->parent;
  }
  if (y->color != RED) {
    while (x != *root && (!x || x->color == BLACK)) {
      int d = x != xp->left; /* x's side under xp; w is its sibling */
      tnode *w = *link(xp, !d);
      if (w->color == RED) {
        w->color = BLACK;
        xp->color = RED;
        rotate(xp, d, root);
        w = *link(xp, !d);
      }
      tnode *near = *link(w, d), *far = *link(w, !d);
      if ((!near || near->color == BLACK) && (!far || far->color == BLACK)) {
        w->color = RED;
        x = xp;
        xp = xp->parent;
      } else {
        if (!far || far->color == BLACK) {
          near->color = BLACK;
          w->color = RED;
          rotate(w, !d, root);
          w = *link(xp, !d);
        }
        w->color = xp->color;
        xp->color = BLACK;
        if (*link(w, !d))
          (*link(w, !d))->color = BLACK;
        rotate(xp, d, root);
        break;
      }
    }
    if (x)
      x->color = BLACK;
  }
  return y;
}
