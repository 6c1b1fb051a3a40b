;;; mevedel-stand-in.el --- The parts of mevedel the cockpit bridge touches, for its tests -*- lexical-binding: t -*-

;;; Commentary:

;; A small stand-in for mevedel's permission queue.  Names, signatures and overlay properties are mevedel's own
;; (FrauH0lle/mevedel):
;;
;;   mevedel-permission-queue.el  `mevedel-permission-notify-function' (called once per admitted card with the
;;                                entry plist without :callback), `mevedel-permission--enqueue' (ENTRY &optional
;;                                SESSION), `mevedel-permission-queue--render-head' (&optional SESSION),
;;                                `mevedel-permission-queue--on-head-outcome' (ENTRY OUTCOME)
;;   mevedel-interaction-prompt.el `mevedel-interaction-prompt-created-hook', `mevedel-interaction-prompt-settled-hook',
;;                                `mevedel--prompt--settle' (OVERLAY OUTCOME) and the overlay properties
;;                                `mevedel--callback', `mevedel--remote' (:body :options :feedback), `mevedel-settled',
;;                                `mevedel-view-interaction-id'
;;   mevedel-queue.el             `mevedel-queue--entry-metadata-get' (ENTRY KEY), `mevedel-queue--entry-metadata-put'
;;                                (ENTRY KEY VALUE), :interaction-id
;;   mevedel-view-interaction.el  `mevedel-view--interaction-overlays' (interaction id → overlay, in the view buffer)
;;   mevedel-structs.el           `mevedel-session' with `name' and `permission-queue'
;;   mevedel-collaboration.el     `mevedel-collaboration-remote-guest'
;;
;; Only the head card is rendered (an overlay in the view buffer), as in mevedel; settling it pops the queue and
;; renders the next head.

;;; Code:

(require 'cl-lib)
(require 'map)

(cl-defstruct (mevedel-session (:constructor mevedel-session--create)) name permission-queue)

(defvar mevedel-permission-notify-function nil)
(defvar mevedel-interaction-prompt-created-hook nil)
(defvar mevedel-interaction-prompt-settled-hook nil)
(defvar mevedel-collaboration-remote-guest nil)
(defvar-local mevedel-view--interaction-overlays nil)

(defvar mevedel-queue--entry-ui-metadata (make-hash-table :test #'eq :weakness 'key))

(defun mevedel-queue--entry-metadata-get (entry key)
  "Return ENTRY's interaction metadata value for KEY."
  (plist-get (gethash entry mevedel-queue--entry-ui-metadata) key))

(defun mevedel-queue--entry-metadata-put (entry key value)
  "Store VALUE under KEY for ENTRY's interaction metadata."
  (puthash entry (plist-put (copy-sequence (gethash entry mevedel-queue--entry-ui-metadata)) key value)
           mevedel-queue--entry-ui-metadata)
  value)

(defvar mevedel-stand-in--settlements nil
  "Every settlement, newest first: (PERMISSION-ID OUTCOME GUEST).")

(defun mevedel-stand-in-view ()
  "The view buffer holding the visible head card."
  (let ((buf (get-buffer-create "*mevedel-stand-in-view*")))
    (with-current-buffer buf
      (unless (hash-table-p mevedel-view--interaction-overlays)
        (setq mevedel-view--interaction-overlays (make-hash-table :test #'equal))))
    buf))

(defun mevedel--prompt--settle (overlay outcome)
  "Settle OVERLAY's callback exactly once with OUTCOME (the `mevedel-settled' gate)."
  (when (and (overlayp overlay) (not (overlay-get overlay 'mevedel-settled)))
    (overlay-put overlay 'mevedel-settled t)
    (let ((cb (overlay-get overlay 'mevedel--callback))
          (iid (overlay-get overlay 'mevedel-view-interaction-id)))
      (when-let ((buf (overlay-buffer overlay)))
        (with-current-buffer buf
          (remhash iid mevedel-view--interaction-overlays)
          (let ((inhibit-read-only t)) (delete-overlay overlay))))
      (run-hook-with-args 'mevedel-interaction-prompt-settled-hook overlay)
      (when cb (funcall cb outcome)))))

(defun mevedel-permission-queue--render-head (&optional session)
  "Render SESSION's head card as an overlay with its remote descriptor, unless it is already shown."
  (when-let ((head (car (mevedel-session-permission-queue session))))
    (with-current-buffer (mevedel-stand-in-view)
      (let ((iid (mevedel-queue--entry-metadata-get head :interaction-id)))
        (unless (and iid (gethash iid mevedel-view--interaction-overlays))
          (let* ((iid (list :permission (plist-get head :permission-id)))
                 (ov (progn (goto-char (point-max)) (insert "card\n") (make-overlay (- (point) 5) (point)))))
            (mevedel-queue--entry-metadata-put head :interaction-id iid)
            (puthash iid ov mevedel-view--interaction-overlays)
            (overlay-put ov 'mevedel-view-interaction-id iid)
            (overlay-put ov 'mevedel-permission-prompt t)
            (overlay-put ov 'mevedel--callback
                         (lambda (outcome) (mevedel-permission-queue--on-head-outcome head outcome)))
            (overlay-put ov 'mevedel--remote
                         (list :body (format "%s: %s\nPermission mode at admission: %s\nCause: mode-based operation judgment\nWarnings: none\nScope: the workspace"
                                             (plist-get head :tool-name)
                                             (or (plist-get head :command) (plist-get head :specifier-value))
                                             (plist-get head :permission-mode-effective))
                               :options '((allow-once . "Allow once") (deny-once . "Deny"))
                               :feedback t))
            (run-hook-with-args 'mevedel-interaction-prompt-created-hook ov)))))))

(defun mevedel-permission-queue--on-head-outcome (entry outcome)
  "Settle ENTRY with OUTCOME, pop it and render the next head."
  (let ((session (plist-get entry :session)))
    (setf (mevedel-session-permission-queue session) (delq entry (mevedel-session-permission-queue session)))
    (push (list (plist-get entry :permission-id) outcome mevedel-collaboration-remote-guest)
          mevedel-stand-in--settlements)
    (when-let ((cb (plist-get entry :callback))) (funcall cb outcome))
    (mevedel-permission-queue--render-head session)))

(defun mevedel-permission--enqueue (entry &optional session)
  "Append ENTRY to SESSION's permission queue, notify once at admission, render the head."
  (let ((entry (copy-sequence entry)))
    (setq entry (plist-put entry :session session))
    (setq entry (plist-put entry :permission-id
                           (or (plist-get entry :permission-id)
                               (format "%s-%s" (format-time-string "%s%N") (gensym "permission-")))))
    (setf (mevedel-session-permission-queue session)
          (append (mevedel-session-permission-queue session) (list entry)))
    (when mevedel-permission-notify-function
      (with-demoted-errors "mevedel: permission notify failed: %S"
        (funcall mevedel-permission-notify-function (map-delete (copy-sequence entry) :callback))))
    (mevedel-permission-queue--render-head session)
    entry))

(provide 'mevedel-stand-in)

;;; mevedel-stand-in.el ends here
