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

static tnode *tree_next(tnode *x) {
  if (x->right) {
    x = x->right;
    while (x->left)
      x = x->left;
    return x;
  }
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
  if (x->left) {
    x = x->left;
    while (x->right)
      x = x->right;
    return x;
  }
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

static void rotate_left(tnode *x, tnode **root) {
  tnode *y = x->right;
  x->right = y->left;
  if (y->left)
    y->left->parent = x;
  y->parent = x->parent;
  if (x == *root)
    *root = y;
  else if (x == x->parent->left)
    x->parent->left = y;
  else
    x->parent->right = y;
  y->left = x;
  x->parent = y;
}

static void rotate_right(tnode *x, tnode **root) {
  tnode *y = x->left;
  x->left = y->right;
  if (y->right)
    y->right->parent = x;
  y->parent = x->parent;
  if (x == *root)
    *root = y;
  else if (x == x->parent->right)
    x->parent->right = y;
  else
    x->parent->left = y;
  y->right = x;
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
    if (x->parent == g->left) {
      tnode *u = g->right;
      if (u && u->color == RED) {
        x->parent->color = BLACK;
        u->color = BLACK;
        g->color = RED;
        x = g;
      } else {
        if (x == x->parent->right) {
          x = x->parent;
          rotate_left(x, root);
        }
        x->parent->color = BLACK;
        g->color = RED;
        rotate_right(g, root);
      }
    } else {
      tnode *u = g->left;
      if (u && u->color == RED) {
        x->parent->color = BLACK;
        u->color = BLACK;
        g->color = RED;
        x = g;
      } else {
        if (x == x->parent->left) {
          x = x->parent;
          rotate_right(x, root);
        }
        x->parent->color = BLACK;
        g->color = RED;
        rotate_left(g, root);
      }
    }
  }
  (*root)->color = BLACK;
}

static tnode *tree_min(tnode *x) {
  while (x->left)
    x = x->left;
  return x;
}

static tnode *tree_max(tnode *x) {
  while (x->right)
    x = x->right;
  return x;
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
    y = tree_min(y->right);
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
      header->left = z->right ? tree_min(x) : z->parent;
    if (header->right == z) /* z had no right child */
      header->right = z->left ? tree_max(x) : z->parent;
  }
  if (y->color != RED) {
    while (x != *root && (!x || x->color == BLACK)) {
      if (x == xp->left) {
        tnode *w = xp->right;
        if (w->color == RED) {
          w->color = BLACK;
          xp->color = RED;
          rotate_left(xp, root);
          w = xp->right;
        }
        if ((!w->left || w->left->color == BLACK) && (!w->right || w->right->color == BLACK)) {
          w->color = RED;
          x = xp;
          xp = xp->parent;
        } else {
          if (!w->right || w->right->color == BLACK) {
            w->left->color = BLACK;
            w->color = RED;
            rotate_right(w, root);
            w = xp->right;
          }
          w->color = xp->color;
          xp->color = BLACK;
          if (w->right)
            w->right->color = BLACK;
          rotate_left(xp, root);
          break;
        }
      } else {
        tnode *w = xp->left;
        if (w->color == RED) {
          w->color = BLACK;
          xp->color = RED;
          rotate_right(xp, root);
          w = xp->left;
        }
        if ((!w->right || w->right->color == BLACK) && (!w->left || w->left->color == BLACK)) {
          w->color = RED;
          x = xp;
          xp = xp->parent;
        } else {
          if (!w->left || w->left->color == BLACK) {
            w->right->color = BLACK;
            w->color = RED;
            rotate_left(w, root);
            w = xp->left;
          }
          w->color = xp->color;
          xp->color = BLACK;
          if (w->left)
            w->left->color = BLACK;
          rotate_right(xp, root);
          break;
        }
      }
    }
    if (x)
      x->color = BLACK;
  }
  return y;
}
