;;; cockpit-bridge.el --- Mirror mevedel permission cards to the Permissions Cockpit -*- lexical-binding: t -*-

;;; Commentary:

;; Load it and turn it on from your init file:
;;
;;   (load "/path/to/permissions-cockpit/integrations/mevedel/cockpit-bridge.el")
;;   (cockpit-bridge-mode 1)
;;
;; with COCKPIT_URL and COCKPIT_TOKEN (an agent token: `npx cockpit agent-token create --workspace DIR')
;; in Emacs's environment, or `cockpit-bridge-url' / `cockpit-bridge-token' customized.
;;
;; At admission (`mevedel-permission-notify-function') every card that waits for a person is posted to the
;; cockpit with the descriptor a browser collaborator reads (`mevedel--remote': admission mode, cause,
;; warnings, selected scope).  A person's answer in the cockpit settles the mevedel card through the same entry
;; point a browser collaborator's answer uses (`mevedel--prompt--settle' on the card's overlay, one-shot
;; outcomes only), exactly once.  A card answered in Emacs first (or coalesced, swept, expired, aborted by
;; mevedel) is aborted in the cockpit ("answered elsewhere").  Everything is asynchronous (timers and
;; `url-retrieve'); an unreachable cockpit changes nothing for the local card.  The absence timeout and holds
;; stay mevedel's: a card the cockpit expires is left to Emacs.

;;; Code:

(require 'cl-lib)
(require 'json)
(require 'subr-x)
(require 'url)
(require 'url-http)

;; mevedel's names (mevedel-permission-queue.el, mevedel-interaction-prompt.el, mevedel-queue.el,
;; mevedel-structs.el, mevedel-collaboration.el); none is needed until a card arrives.
(defvar mevedel-permission-notify-function)
(defvar mevedel-interaction-prompt-created-hook)
(defvar mevedel-interaction-prompt-settled-hook)
(defvar mevedel-view--interaction-overlays)
(defvar mevedel-collaboration-remote-guest)
(defvar url-http-end-of-headers)
(defvar url-http-response-status)
(declare-function mevedel--prompt--settle "mevedel-interaction-prompt" (overlay outcome))
(declare-function mevedel-queue--entry-metadata-get "mevedel-queue" (entry key))
(declare-function mevedel-session-permission-queue "mevedel-structs" (cl-x))
(declare-function mevedel-session-name "mevedel-structs" (cl-x))

(defgroup cockpit-bridge nil
  "Mirror mevedel permission cards to the Permissions Cockpit."
  :group 'tools)

(defcustom cockpit-bridge-url (or (getenv "COCKPIT_URL") "http://localhost:3000")
  "The cockpit's address."
  :type 'string)

(defcustom cockpit-bridge-token (getenv "COCKPIT_TOKEN")
  "Agent token for the cockpit's agent API (`cockpit agent-token create --workspace DIR')."
  :type '(choice (const :tag "None" nil) string))

(defcustom cockpit-bridge-poll-interval 2
  "Seconds between two looks at the cockpit's answers and mevedel's queue."
  :type 'number)

(defcustom cockpit-bridge-guest-name "permissions cockpit"
  "Who answered, as mevedel's collaboration messages name a remote guest."
  :type 'string)

(cl-defstruct (cockpit-bridge--card (:constructor cockpit-bridge--card-create))
  "One mevedel card mirrored to the cockpit."
  id session entry card-id hash
  ;; new → posting → pending → answered → settled; done when retired; failed when the cockpit refused it.
  (state 'new)
  answer overlay busy (attempts 0))

(defvar cockpit-bridge--cards (make-hash-table :test #'equal)
  "Mirrored cards by mevedel's :permission-id.")

(defvar cockpit-bridge--previous-notify nil
  "The notify function that was set before the bridge; it is still called for every card.")

(defvar cockpit-bridge--timer nil)

(defvar cockpit-bridge--settling nil
  "Non-nil while the bridge itself settles a card (the settled hook then knows it was not Emacs).")

;;;; HTTP

(defun cockpit-bridge--token ()
  "The agent token, or nil when none is set."
  (and (stringp cockpit-bridge-token) (not (string-empty-p cockpit-bridge-token)) cockpit-bridge-token))

(defun cockpit-bridge--response (status callback)
  "Parse the response in the current buffer (url-retrieve STATUS) and hand it to CALLBACK."
  (let ((code 0) (body nil))
    (unwind-protect
        (ignore-errors
          (unless (plist-get status :error)
            (setq code (or url-http-response-status 0))
            (when url-http-end-of-headers
              (let ((text (decode-coding-string
                           (buffer-substring-no-properties url-http-end-of-headers (point-max)) 'utf-8)))
                (unless (string-blank-p text)
                  (setq body (let ((json-object-type 'alist) (json-array-type 'list) (json-key-type 'symbol))
                               (json-read-from-string text))))))))
      (kill-buffer (current-buffer)))
    (when callback
      (with-demoted-errors "cockpit-bridge: %S" (funcall callback code body)))))

(defun cockpit-bridge--request (method path body callback)
  "Send METHOD PATH with BODY (an alist, or nil) to the cockpit; CALLBACK gets (STATUS JSON), 0 on failure.
Asynchronous: nothing here waits for the network."
  (let ((token (cockpit-bridge--token)))
    (if (not token)
        (when callback (funcall callback 0 nil))
      (let ((url-request-method method)
            (url-request-extra-headers
             `(("Authorization" . ,(concat "Bearer " token))
               ,@(when body '(("Content-Type" . "application/json")))))
            (url-request-data (and body (encode-coding-string (json-encode body) 'utf-8)))
            (url (concat (replace-regexp-in-string "/+\\'" "" cockpit-bridge-url) path)))
        (condition-case nil
            (url-retrieve url (lambda (status) (cockpit-bridge--response status callback)) nil t t)
          (error (when callback (funcall callback 0 nil))))))))

;;;; mevedel's queue, read only

(defun cockpit-bridge--queued-entry (card)
  "CARD's entry while it is still in its session's permission queue, else nil."
  (let ((session (cockpit-bridge--card-session card)))
    (when (and session (fboundp 'mevedel-session-permission-queue))
      (cl-find (cockpit-bridge--card-id card)
               (ignore-errors (mevedel-session-permission-queue session))
               :key (lambda (e) (plist-get e :permission-id)) :test #'equal))))

(defun cockpit-bridge--interaction-id (entry)
  "The interaction id mevedel gave ENTRY when it rendered it as the head, or nil."
  (and entry (fboundp 'mevedel-queue--entry-metadata-get)
       (mevedel-queue--entry-metadata-get entry :interaction-id)))

(defun cockpit-bridge--live-p (overlay)
  "Non-nil when OVERLAY is a card overlay that has not settled."
  (and (overlayp overlay) (overlay-buffer overlay) (not (overlay-get overlay 'mevedel-settled))))

(defun cockpit-bridge--overlay (card)
  "The overlay of CARD's prompt when it is the rendered head of its queue, else nil."
  (let ((known (cockpit-bridge--card-overlay card))
        (iid (cockpit-bridge--interaction-id (cockpit-bridge--queued-entry card))))
    (cond
     ((null iid) nil)
     ((and (cockpit-bridge--live-p known) (equal (overlay-get known 'mevedel-view-interaction-id) iid)) known)
     (t (cl-loop for buf in (buffer-list)
                 for ov = (with-current-buffer buf
                            (and (boundp 'mevedel-view--interaction-overlays)
                                 (hash-table-p mevedel-view--interaction-overlays)
                                 (gethash iid mevedel-view--interaction-overlays)))
                 when (cockpit-bridge--live-p ov)
                 return (setf (cockpit-bridge--card-overlay card) ov))))))

;;;; The card as the cockpit reads it

(defun cockpit-bridge--name (value)
  "VALUE (a symbol or string) as a string, or nil."
  (cond ((and value (symbolp value)) (symbol-name value)) ((stringp value) value)))

(defun cockpit-bridge--tool-and-input (entry)
  "The cockpit's (TOOL . INPUT-ALIST) for mevedel ENTRY."
  (let ((kind (plist-get entry :kind))
        (key (plist-get entry :specifier-key))
        (value (plist-get entry :specifier-value)))
    (pcase kind
      ('bash (cons "Bash" `((command . ,(or (plist-get entry :command) value "")))))
      ('eval (cons "Eval" `((expression . ,(or (plist-get entry :expression) value ""))
                            ,@(when-let ((mode (plist-get entry :mode))) `((mode . ,(cockpit-bridge--name mode)))))))
      ('sandbox
       (cons (or (plist-get entry :tool-name) "Bash")
             `((command . ,(or (plist-get entry :detail) value ""))
               ,@(when-let ((level (plist-get entry :sandbox-permissions)))
                   `((sandbox_permissions . ,(replace-regexp-in-string "-" "_" (cockpit-bridge--name level)))))
               ,@(when-let ((path (plist-get entry :resource-path))) `((resource_path . ,path))))))
      (_ (cons (or (plist-get entry :tool-name) "Unknown")
               (pcase key
                 (:path `((path . ,value)))
                 (:domain `((url . ,(concat "https://" value "/"))))
                 (:name `((name . ,value)))
                 (:pattern `((command . ,value)))
                 (:expression `((expression . ,value)))
                 (_ (when value `((specifier . ,value))))))))))

(defun cockpit-bridge--descriptor (card)
  "The text a browser collaborator reads for CARD (`mevedel--remote' :body), or nil before it is rendered."
  (when-let ((ov (cockpit-bridge--overlay card)))
    (let ((body (plist-get (overlay-get ov 'mevedel--remote) :body)))
      (and (stringp body) (substring-no-properties body)))))

(defun cockpit-bridge--session-name (session)
  "A name for SESSION the cockpit groups cards by."
  (or (and session (fboundp 'mevedel-session-name) (ignore-errors (cockpit-bridge--name (mevedel-session-name session))))
      "mevedel"))

(defun cockpit-bridge--card-body (card)
  "The cockpit's admission request for CARD (POST /api/agent/v1/cards)."
  (let* ((entry (cockpit-bridge--card-entry card))
         (tool+input (cockpit-bridge--tool-and-input entry))
         (descriptor (cockpit-bridge--descriptor card))
         (session (cockpit-bridge--session-name (cockpit-bridge--card-session card)))
         (origin (plist-get entry :origin))
         (mode (or (plist-get entry :permission-mode-effective) (plist-get entry :permission-mode-base)))
         (reason (plist-get entry :justification))
         (cwd (plist-get entry :execution-directory)))
    `((agent . "mevedel")
      (sessionId . ,session)
      (rootSessionId . ,session)
      ,@(when (and (stringp origin) (string-prefix-p "/" origin)) `((originPath . ,origin)))
      ,@(when mode `((mode . ,(cockpit-bridge--name mode))))
      ,@(when (stringp cwd) `((cwd . ,(expand-file-name cwd))))
      (tool . ,(car tool+input))
      (input . ,(append (cdr tool+input)
                        ;; mevedel's own card, as its browser collaborators read it: kept with the request.
                        (when descriptor `((agent_card . ,descriptor)))
                        `((permission_id . ,(cockpit-bridge--card-id card)))))
      ,@(when (stringp reason) `((reason . ,reason)))
      ;; mevedel decided to ask: its own rules never settle this card as allow in the cockpit (the floor).
      (agentAsked . t))))

;;;; Lifecycle

(defun cockpit-bridge--post (card)
  "Post CARD to the cockpit (once; retried on the next tick when the cockpit was unreachable)."
  (when (and (memq (cockpit-bridge--card-state card) '(new failed))
             (< (cockpit-bridge--card-attempts card) 3)
             (cockpit-bridge--queued-entry card))
    (setf (cockpit-bridge--card-state card) 'posting)
    (cl-incf (cockpit-bridge--card-attempts card))
    (cockpit-bridge--request
     "POST" "/api/agent/v1/cards" (cockpit-bridge--card-body card)
     (lambda (status json)
       (cond
        ((= status 201)
         (setf (cockpit-bridge--card-card-id card) (alist-get 'id json)
               (cockpit-bridge--card-hash card) (alist-get 'hash json)
               (cockpit-bridge--card-state card) 'pending)
         ;; Answered in Emacs while the request was on its way.
         (unless (cockpit-bridge--queued-entry card) (cockpit-bridge--retire card)))
        ((= status 200)
         ;; The cockpit's own authority (a rule a person saved there) decided at admission.
         (let ((d (alist-get 'decision json)))
           (cockpit-bridge--answer card (equal (alist-get 'decision d) "allow") (alist-get 'reason d))))
        (t (setf (cockpit-bridge--card-state card) 'failed)))))))

(defun cockpit-bridge--answer (card allow message)
  "Record the cockpit's answer for CARD (ALLOW, or a deny with MESSAGE) and settle it if it is showing."
  (when (memq (cockpit-bridge--card-state card) '(posting pending))
    (setf (cockpit-bridge--card-answer card) (list allow message)
          (cockpit-bridge--card-state card) 'answered)
    (cockpit-bridge--try-settle card)))

(defun cockpit-bridge--outcome (overlay allow message)
  "The outcome OVERLAY's remote options offer for ALLOW / a deny with MESSAGE; nil when none fits.
A guest may only mint one-shot outcomes, as mevedel's collaboration does."
  (let* ((remote (overlay-get overlay 'mevedel--remote))
         (offered (mapcar #'car (plist-get remote :options)))
         (feedback (plist-get remote :feedback)))
    (cond
     (allow (cl-find-if (lambda (o) (memq o '(allow-once allow approve))) offered))
     ((and (stringp message) (not (string-blank-p message)) feedback)
      (if (functionp feedback) (lambda () (funcall feedback (string-trim message))) (cons 'feedback (string-trim message))))
     (t (cl-find-if (lambda (o) (memq o '(deny-once deny))) offered)))))

(defun cockpit-bridge--try-settle (card)
  "Settle CARD's mevedel prompt with the cockpit's answer, once, when it is the rendered head."
  (when (eq (cockpit-bridge--card-state card) 'answered)
    (if (not (cockpit-bridge--queued-entry card))
        (setf (cockpit-bridge--card-state card) 'done)
      (when-let* ((ov (cockpit-bridge--overlay card))
                  (answer (cockpit-bridge--card-answer card))
                  (outcome (cockpit-bridge--outcome ov (car answer) (cadr answer))))
        (setf (cockpit-bridge--card-state card) 'settled)
        (with-current-buffer (overlay-buffer ov)
          (let ((cockpit-bridge--settling card)
                (mevedel-collaboration-remote-guest cockpit-bridge-guest-name))
            (condition-case err
                (if (functionp outcome) (funcall outcome) (mevedel--prompt--settle ov outcome))
              (error (message "cockpit-bridge: the answer was refused: %s" (error-message-string err))))))))))

(defun cockpit-bridge--retire (card)
  "CARD left mevedel's queue without the cockpit's answer: abort it in the cockpit (\"answered elsewhere\")."
  (let ((id (cockpit-bridge--card-card-id card)))
    (setf (cockpit-bridge--card-state card) 'done)
    (when id (cockpit-bridge--request "DELETE" (concat "/api/agent/v1/cards/" id) nil nil))))

(defun cockpit-bridge--poll (card)
  "Ask the cockpit whether CARD was answered."
  (unless (cockpit-bridge--card-busy card)
    (setf (cockpit-bridge--card-busy card) t)
    (cockpit-bridge--request
     "GET" (format "/api/agent/v1/cards/%s?wait=0" (cockpit-bridge--card-card-id card)) nil
     (lambda (status json)
       (setf (cockpit-bridge--card-busy card) nil)
       (when (= status 200)
         (let* ((state (alist-get 'status json))
                (settlement (alist-get 'settlement json))
                (outcome (alist-get 'outcome settlement)))
           (cond
            ((member state '("allowed" "coalesced" "denied"))
             (cockpit-bridge--answer card (and (equal outcome "allow") (not (equal state "denied")))
                                     (alist-get 'message settlement)))
            ;; Expired or aborted in the cockpit: the local card stays mevedel's to decide.
            ((member state '("expired" "aborted")) (setf (cockpit-bridge--card-state card) 'done)))))))))

(defun cockpit-bridge--tick ()
  "Look at every mirrored card: post, poll, settle, or retire it."
  (let (finished)
    (maphash
     (lambda (id card)
       (let ((queued (cockpit-bridge--queued-entry card)))
         (pcase (cockpit-bridge--card-state card)
           ((or 'new 'failed)
            (if (and queued (< (cockpit-bridge--card-attempts card) 3)) (cockpit-bridge--post card) (push id finished)))
           ('pending (if queued (cockpit-bridge--poll card) (cockpit-bridge--retire card)))
           ('answered (cockpit-bridge--try-settle card))
           ((or 'settled 'done) (unless queued (push id finished))))))
     cockpit-bridge--cards)
    (dolist (id finished) (remhash id cockpit-bridge--cards))))

;;;; mevedel's hooks

(defun cockpit-bridge--notify (entry)
  "`mevedel-permission-notify-function': mirror ENTRY (a card admitted for a person) to the cockpit.
Calls the notify function that was set before the bridge too.  Returns at once: the request goes out from a timer."
  (when (functionp cockpit-bridge--previous-notify)
    (with-demoted-errors "cockpit-bridge: the previous notify function failed: %S"
      (funcall cockpit-bridge--previous-notify entry)))
  (let ((id (plist-get entry :permission-id)))
    (when (and id (cockpit-bridge--token) (not (gethash id cockpit-bridge--cards)))
      (let ((card (cockpit-bridge--card-create :id id :session (plist-get entry :session) :entry entry)))
        (puthash id card cockpit-bridge--cards)
        ;; After the queue has rendered its head, so the descriptor is there for the head card.
        (run-at-time 0 nil #'cockpit-bridge--post card)))))

(defun cockpit-bridge--card-of-overlay (overlay)
  "The mirrored card OVERLAY belongs to, or nil."
  (let ((iid (overlay-get overlay 'mevedel-view-interaction-id)))
    (when iid
      (catch 'found
        (maphash (lambda (_id card)
                   (when (equal iid (cockpit-bridge--interaction-id (cockpit-bridge--queued-entry card)))
                     (throw 'found card)))
                 cockpit-bridge--cards)
        nil))))

(defun cockpit-bridge--on-prompt-created (overlay)
  "A card became the visible head: settle it now if the cockpit already answered."
  (when-let ((card (cockpit-bridge--card-of-overlay overlay)))
    (setf (cockpit-bridge--card-overlay card) overlay)
    (cockpit-bridge--try-settle card)))

(defun cockpit-bridge--on-prompt-settled (overlay)
  "A card settled: when Emacs (not the bridge) answered it, abort it in the cockpit."
  (unless cockpit-bridge--settling
    (when-let ((card (cockpit-bridge--card-of-overlay overlay)))
      (unless (memq (cockpit-bridge--card-state card) '(settled done))
        (cockpit-bridge--retire card)))))

;;;###autoload
(define-minor-mode cockpit-bridge-mode
  "Mirror mevedel permission cards to the Permissions Cockpit and settle them from its answers."
  :global t
  :group 'cockpit-bridge
  (if cockpit-bridge-mode
      (progn
        (unless (eq (bound-and-true-p mevedel-permission-notify-function) #'cockpit-bridge--notify)
          (setq cockpit-bridge--previous-notify (bound-and-true-p mevedel-permission-notify-function))
          (setq mevedel-permission-notify-function #'cockpit-bridge--notify))
        (add-hook 'mevedel-interaction-prompt-created-hook #'cockpit-bridge--on-prompt-created)
        (add-hook 'mevedel-interaction-prompt-settled-hook #'cockpit-bridge--on-prompt-settled)
        (when (timerp cockpit-bridge--timer) (cancel-timer cockpit-bridge--timer))
        (setq cockpit-bridge--timer
              (run-at-time cockpit-bridge-poll-interval cockpit-bridge-poll-interval #'cockpit-bridge--tick)))
    (when (eq (bound-and-true-p mevedel-permission-notify-function) #'cockpit-bridge--notify)
      (setq mevedel-permission-notify-function cockpit-bridge--previous-notify))
    (setq cockpit-bridge--previous-notify nil)
    (remove-hook 'mevedel-interaction-prompt-created-hook #'cockpit-bridge--on-prompt-created)
    (remove-hook 'mevedel-interaction-prompt-settled-hook #'cockpit-bridge--on-prompt-settled)
    (when (timerp cockpit-bridge--timer) (cancel-timer cockpit-bridge--timer))
    (setq cockpit-bridge--timer nil)))

(provide 'cockpit-bridge)

;;; cockpit-bridge.el ends here
